import { createHash } from "node:crypto";
import { route } from "@/lib/http/route";
import { listingCodeBytes } from "@/lib/registry/listing-code";

/** The exact bytes of one code resource a listing pins, by sha256 (public, immutable). */
export const GET = route({
  handler: async ({ params }) => {
    const { name, bytes } = await listingCodeBytes(params.slug ?? "", params.version ?? "", params.sha256 ?? "");
    return new Response(new Uint8Array(bytes), {
      headers: {
        // Served as data, never as a script of this origin.
        "content-type": "application/octet-stream",
        "x-content-type-options": "nosniff",
        "content-disposition": `attachment; filename="${name.split("/").pop()}"`,
        "content-length": String(bytes.length),
        "repr-digest": `sha-256=:${createHash("sha256").update(bytes).digest("base64")}:`,
        "cache-control": "public, max-age=31536000, immutable",
      },
    });
  },
});
