import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/openapi/document";

const API = path.join(import.meta.dirname, "../../app/api/v1");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? routeFiles(path.join(dir, e.name)) : e.name === "route.ts" ? [path.join(dir, e.name)] : [],
  );
}

/** "METHOD /path/{param}" for every handler app/api/v1 exports. */
function implemented(): string[] {
  return routeFiles(API).flatMap((file) => {
    const route = "/" + path.relative(API, path.dirname(file)).split(path.sep).join("/");
    const openApiPath = route.replace(/\[(\w+)\]/g, "{$1}");
    const source = readFileSync(file, "utf8");
    return METHODS.filter((m) => new RegExp(`export (const|async function|function) ${m}\\b`).test(source)).map(
      (m) => `${m} ${openApiPath}`,
    );
  });
}

function documented(): string[] {
  return Object.entries(openApiDocument().paths).flatMap(([p, ops]) =>
    Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
  );
}

describe("the OpenAPI document", () => {
  it("lists exactly the operations app/api/v1 implements", () => {
    expect(implemented().length).toBeGreaterThan(50);
    expect(documented().sort()).toEqual(implemented().sort());
  });

  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(openApiDocument());
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("describes a request body with the zod schema its route validates with", () => {
    const op = openApiDocument().paths["/installs"]?.post as {
      requestBody: {
        content: { "application/json": { schema: { required: string[]; properties: Record<string, unknown> } } };
      };
    };
    const schema = op.requestBody.content["application/json"].schema;
    expect(schema.required.sort()).toEqual(["slug", "version"]);
    expect(Object.keys(schema.properties)).toContain("findings_ack");
  });

  it("gives each query parameter its constraints", () => {
    const op = openApiDocument().paths["/audit"]?.get as {
      parameters: { name: string; schema: Record<string, unknown> }[];
    };
    const days = op.parameters.find((p) => p.name === "days");
    expect(days?.schema).toMatchObject({ minimum: 1, maximum: 90, default: 7 });
  });
});
