// The OpenAPI 3.1 document of /api/v1, built from the route table and the zod schemas the routes
// validate with (served at /api/v1/openapi.json, rendered at /docs/api).
import { z, type ZodType } from "zod";
import { OPERATIONS, type Auth, type Operation } from "./routes";

type JsonSchema = Record<string, unknown>;

const ERROR_SCHEMA: JsonSchema = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: {
        code: { type: "string", description: "A stable code, such as request.invalid or token.not_found." },
        message: { type: "string" },
        details: {},
        requestId: { type: "string" },
      },
    },
  },
};

const SECURITY: Record<Exclude<Auth, "public">, Record<string, string[]>[]> = {
  session: [{ session: [] }],
  operator: [{ session: [] }],
  agent: [{ agentToken: [] }],
  api: [{ apiToken: [] }, { session: [] }],
};

function jsonSchema(schema: ZodType, io: "input" | "output" = "input"): JsonSchema {
  const out = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  delete out.$schema;
  return out;
}

function pathParams(path: string) {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
}

function queryParams(query: ZodType | undefined) {
  if (!query) return [];
  const schema = jsonSchema(query);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, s]) => ({
    name,
    in: "query",
    required: required.has(name),
    schema: s,
  }));
}

function operation(o: Operation) {
  const status = String(o.status ?? 200);
  const produces = o.produces ?? "application/json";
  const error = {
    description: "An error with a stable code.",
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  };
  const responses: Record<string, unknown> = {
    [status]: {
      description: "Success.",
      content: { [produces]: { schema: produces === "application/json" ? { type: "object" } : { type: "string" } } },
    },
    "4XX": error,
  };
  if (o.body || o.query)
    responses["400"] = { ...error, description: "The request failed validation (request.invalid)." };
  if (o.auth !== "public") responses["401"] = { ...error, description: "Not signed in, or the token is not valid." };
  const parameters = [...pathParams(o.path), ...queryParams(o.query)];
  if (o.idempotent)
    parameters.push({ name: "Idempotency-Key", in: "header", required: false, schema: { type: "string" } });
  if (o.preferWait)
    parameters.push({ name: "Prefer", in: "header", required: false, schema: { type: "string", example: "wait=25" } });
  return {
    operationId: `${o.method.toLowerCase()}${o.path.replace(/[{}]/g, "").replace(/[^a-zA-Z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? "").toUpperCase())}`,
    summary: o.summary,
    tags: [o.tag],
    ...(o.auth === "public" ? { security: [] } : { security: SECURITY[o.auth] }),
    ...(parameters.length ? { parameters } : {}),
    ...(o.body
      ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(o.body) } } } }
      : {}),
    responses,
  };
}

export function openApiDocument(serverUrl = "/api/v1") {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const o of OPERATIONS) (paths[o.path] ??= {})[o.method.toLowerCase()] = operation(o);
  return {
    openapi: "3.1.0",
    info: {
      title: "OpenVibe Skills API",
      version: "1",
      description: "The registry's REST API. Errors are `{ error: { code, message, details? } }` with a stable code.",
    },
    servers: [{ url: serverUrl }],
    tags: [...new Set(OPERATIONS.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { Error: ERROR_SCHEMA },
      securitySchemes: {
        session: {
          type: "apiKey",
          in: "cookie",
          name: "next-auth.session-token",
          description: "A signed-in browser session.",
        },
        apiToken: { type: "http", scheme: "bearer", description: "An API token from /dashboard/tokens." },
        agentToken: { type: "http", scheme: "bearer", description: "An agent's token from /dashboard/agents." },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;
