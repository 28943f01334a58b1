// The schema files and the named constants must say the same thing, and the schemas must compile
// under ajv's strict mode (they do at first use; this makes a broken schema fail here, by name).
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { ERROR_STATUS } from "../errors/codes";
import { CONTRACT_ERROR_CODES, contractSchema, invalidContractError } from "./index";
import * as L from "./limits";

type S = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const skill2 = contractSchema("actor.skill@2") as S;
const skill1 = contractSchema("actor.skill@1") as S;
const listing2 = contractSchema("actor.skill-listing@2") as S;

describe("contract schemas", () => {
  it.each(L.CONTRACT_NAMES)("%s compiles in strict mode as JSON Schema 2020-12", (name) => {
    const ajv = new Ajv2020({ strict: true, discriminator: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    const schema = contractSchema(name) as S;
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.properties.contract.const).toBe(name);
    expect(() => ajv.compile(schema)).not.toThrow();
  });

  it("states the caps and patterns of limits.ts", () => {
    const tool = skill2.$defs.tool.properties;
    expect(tool.name.pattern).toBe(L.TOOL_NAME_PATTERN);
    expect(tool.description.maxLength).toBe(L.TOOL_DESCRIPTION_MAX_LENGTH);
    expect(tool.language.const).toBe(L.TOOL_LANGUAGE);
    expect(tool.net).toMatchObject({ enum: [...L.NET_POLICIES], default: L.NET_DEFAULT });
    expect(tool.limits.properties.wall_ms).toMatchObject({
      maximum: L.WALL_MS_MAX,
      default: L.WALL_MS_DEFAULT,
      minimum: L.WALL_MS_MIN,
    });
    expect(tool.limits.properties.mem_bytes).toMatchObject({
      maximum: L.MEM_BYTES_MAX,
      default: L.MEM_BYTES_DEFAULT,
      minimum: L.MEM_BYTES_MIN,
    });
    expect(skill2.properties.tools).toMatchObject({ minItems: L.TOOLS_MIN, maxItems: L.TOOLS_MAX });
    expect(skill2.$defs.argString.properties.pattern.maxLength).toBe(L.ARGS_PATTERN_MAX_LENGTH);
    expect(skill2.$defs.argString.properties.maxLength.maximum).toBe(L.ARGS_MAX_LENGTH_MAX);
    expect(skill2.$defs.args.properties.properties.maxProperties).toBe(L.ARGS_PROPERTIES_MAX);
    expect(skill2.$defs.resource.properties.media_type.enum).toEqual([...L.TEXT_MEDIA_TYPES, L.CODE_MEDIA_TYPE]);
    expect(skill1.$defs.resource.properties.media_type.enum).toEqual([...L.TEXT_MEDIA_TYPES]);
    for (const s of [skill1, skill2]) {
      expect(s.properties.slug.pattern).toBe(L.SLUG_PATTERN);
      expect(s.properties.version.pattern).toBe(L.SEMVER_PATTERN);
      expect(s.properties.instructions.maxLength).toBe(L.INSTRUCTIONS_MAX_BYTES);
      expect(s.properties.resources.maxItems).toBe(L.RESOURCES_MAX);
      expect(s.properties.integrity.pattern).toBe(L.INTEGRITY_PATTERN);
      expect(s.$defs.resource.properties.text.maxLength).toBe(L.RESOURCE_TEXT_MAX_BYTES);
      expect(s.$defs.resourceName.pattern).toBe(L.RESOURCE_NAME_PATTERN);
      expect(s.$defs.requires.properties.kinds.maxItems).toBe(L.KINDS_MAX);
    }
    expect(listing2.properties.code.items.properties.media_id.pattern).toBe(L.MEDIA_ID_PATTERN);
    expect(listing2.properties.code.items.properties.sha256.pattern).toBe(L.SHA256_PATTERN);
    expect(listing2.properties.status.enum).toEqual([...L.LISTING_STATUSES]);
    expect(L.CODE_RESOURCE_MAX_BYTES).toBe(64 * 1024);
    expect(L.DOCUMENT_MAX_BYTES).toBe(1024 * 1024);
  });

  it("contractSchema answers null for unknown names and a copy for known ones", () => {
    expect(contractSchema("actor.skill@3")).toBeNull();
    expect(contractSchema("__proto__")).toBeNull();
    (contractSchema("actor.skill@2") as S).title = "changed";
    expect((contractSchema("actor.skill@2") as S).title).toBe("actor.skill@2");
  });
});

describe("contract error codes", () => {
  it("every code is in the HTTP table as 422", () => {
    for (const code of CONTRACT_ERROR_CODES)
      expect([code, (ERROR_STATUS as Record<string, number>)[code]]).toEqual([code, 422]);
  });

  it("invalidContractError carries every error as details", () => {
    const err = invalidContractError([
      { path: "/tools/0/net", code: "contract.schema", message: "Must be one of deny." },
    ]);
    expect(err.status).toBe(422);
    expect(err.code).toBe("contract.invalid");
    expect(err.details).toHaveLength(1);
  });
});
