import { route } from "@/lib/http/route";
import { openApiDocument } from "@/lib/openapi/document";

/** The OpenAPI 3.1 document of /api/v1 (rendered at /docs/api). */
export const GET = route({ handler: async () => openApiDocument() });
