// The OpenAPI document flattened for /docs/api: operations grouped by tag, each parameter and
// body field with a one-line type.
import { openApiDocument } from "./document";

type Schema = Record<string, unknown>;
export type FieldView = { name: string; where: string; required: boolean; type: string };
export type OperationView = {
  id: string;
  method: string;
  path: string;
  summary: string;
  auth: string;
  fields: FieldView[];
  responses: { status: string; description: string }[];
};

const AUTH_WORDS: Record<string, string> = {
  session: "a signed-in session",
  apiToken: "an API token",
  agentToken: "an agent token",
};

export function typeWords(s: Schema | undefined): string {
  if (!s) return "any";
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (Array.isArray(s.anyOf)) return (s.anyOf as Schema[]).map(typeWords).join(" | ");
  const parts = [typeof s.type === "string" ? s.type : "any"];
  if (typeof s.pattern === "string") parts.push(`matching ${s.pattern}`);
  if (typeof s.minimum === "number" || typeof s.maximum === "number")
    parts.push(`${s.minimum ?? "…"}–${s.maximum ?? "…"}`);
  if (typeof s.maxLength === "number") parts.push(`at most ${s.maxLength} chars`);
  if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
  return parts.join(", ");
}

export function apiReference(): { tag: string; operations: OperationView[] }[] {
  const doc = openApiDocument();
  const groups = new Map<string, OperationView[]>(doc.tags.map((t) => [t.name, []]));
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(ops)) {
      const o = raw as {
        operationId: string;
        summary: string;
        tags: string[];
        security: Record<string, string[]>[];
        parameters?: { name: string; in: string; required: boolean; schema: Schema }[];
        requestBody?: { content: { "application/json": { schema: Schema } } };
        responses: Record<string, { description: string }>;
      };
      const body = o.requestBody?.content["application/json"].schema;
      const required = new Set((body?.required as string[] | undefined) ?? []);
      const fields: FieldView[] = [
        ...(o.parameters ?? []).map((p) => ({
          name: p.name,
          where: p.in,
          required: p.required,
          type: typeWords(p.schema),
        })),
        ...Object.entries((body?.properties ?? {}) as Record<string, Schema>).map(([name, s]) => ({
          name,
          where: "body",
          required: required.has(name),
          type: typeWords(s),
        })),
      ];
      const auth = o.security.length
        ? o.security
            .map((req) =>
              Object.keys(req)
                .map((k) => AUTH_WORDS[k] ?? k)
                .join(" and "),
            )
            .join(" or ")
        : "none (public)";
      groups.get(o.tags[0] ?? "")?.push({
        id: o.operationId,
        method: method.toUpperCase(),
        path: `/api/v1${path}`,
        summary: o.summary,
        auth,
        fields,
        responses: Object.entries(o.responses).map(([status, r]) => ({ status, description: r.description })),
      });
    }
  }
  return [...groups].map(([tag, operations]) => ({ tag, operations }));
}
