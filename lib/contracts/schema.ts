// The contract schemas, compiled once by ajv (JSON Schema 2020-12, strict mode, formats), and the
// translation of ajv's errors into ContractErrors with JSON-pointer paths.
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import listingV1 from "./schemas/actor.skill-listing@1.json";
import listingV2 from "./schemas/actor.skill-listing@2.json";
import skillV1 from "./schemas/actor.skill@1.json";
import skillV2 from "./schemas/actor.skill@2.json";
import { CONTRACT_NAMES } from "./limits";
import { linearRegExpEngine } from "./tool-args";
import type { ContractError } from "./types";

export type ContractName = (typeof CONTRACT_NAMES)[number];

const SCHEMAS: Record<ContractName, object> = {
  "actor.skill@1": skillV1,
  "actor.skill@2": skillV2,
  "actor.skill-listing@1": listingV1,
  "actor.skill-listing@2": listingV2,
};

export function isContractName(name: unknown): name is ContractName {
  return typeof name === "string" && Object.hasOwn(SCHEMAS, name);
}

/** The published JSON Schema of a contract (a deep copy, so callers cannot alter the compiled one). */
export function contractSchema(name: string): object | null {
  return isContractName(name) ? structuredClone(SCHEMAS[name]) : null;
}

// ajv-formats is CommonJS with a default export; under some loaders it arrives wrapped once more.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

const CONTRACT_PATTERN_MAX_INPUT = 1024;

let compiled: Record<ContractName, ValidateFunction> | null = null;

function validators(): Record<ContractName, ValidateFunction> {
  if (compiled) return compiled;
  // Every `pattern` of the contracts meets authors' text: the linear engine, and no patterned field
  // is longer than this (each has a far smaller maxLength), so longer values fail unread.
  const ajv = new Ajv2020({
    strict: true,
    allErrors: true,
    discriminator: true,
    code: { regExp: linearRegExpEngine(CONTRACT_PATTERN_MAX_INPUT) },
  });
  addFormats(ajv, ["date-time", "regex"]);
  compiled = Object.fromEntries(CONTRACT_NAMES.map((name) => [name, ajv.compile(SCHEMAS[name])])) as Record<
    ContractName,
    ValidateFunction
  >;
  return compiled;
}

/** Every schema error of `value` against contract `name`, as ContractErrors (code `contract.schema`). */
export function schemaErrors(name: ContractName, value: unknown): ContractError[] {
  const validate = validators()[name];
  if (validate(value)) return [];
  const seen = new Set<string>();
  const errors: ContractError[] = [];
  for (const e of validate.errors ?? []) {
    const err = toContractError(e);
    if (!err) continue;
    const id = `${err.path}\u0000${err.message}`;
    if (seen.has(id)) continue;
    seen.add(id);
    errors.push(err);
  }
  return errors;
}

const escapePointer = (s: string) => s.replaceAll("~", "~0").replaceAll("/", "~1");

function toContractError(e: ErrorObject): ContractError | null {
  const params = e.params as Record<string, unknown>;
  // oneOf/if wrappers repeat what their branches already said.
  if (e.keyword === "oneOf" || e.keyword === "if") return null;
  switch (e.keyword) {
    case "required":
      return {
        path: `${e.instancePath}/${escapePointer(String(params.missingProperty))}`,
        code: "contract.schema",
        message: "This field is required.",
      };
    case "additionalProperties":
      return {
        path: `${e.instancePath}/${escapePointer(String(params.additionalProperty))}`,
        code: "contract.schema",
        message: "This field is not part of the contract.",
      };
    case "propertyNames":
      return null; // reported by the nested pattern error below, with the offending name
    case "pattern":
      if (e.propertyName !== undefined) {
        return {
          path: `${e.instancePath}/${escapePointer(e.propertyName)}`,
          code: "contract.schema",
          message: `The name must match ${String(params.pattern)}.`,
        };
      }
      return { path: e.instancePath, code: "contract.schema", message: `Must match ${String(params.pattern)}.` };
    case "const":
      return {
        path: e.instancePath,
        code: "contract.schema",
        message: `Must be ${JSON.stringify(params.allowedValue)}.`,
      };
    case "enum":
      return {
        path: e.instancePath,
        code: "contract.schema",
        message: `Must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}.`,
      };
    case "discriminator":
      // A missing `type` is already reported by `required`.
      if (params.error === "tag" && params.tagValue === undefined) return null;
      return {
        path: `${e.instancePath}/type`,
        code: "contract.schema",
        message:
          "An argument's type must be string, number, integer, boolean or array (of those); nested objects are not allowed.",
      };
    default:
      return { path: e.instancePath, code: "contract.schema", message: sentence(e.message ?? "is not valid") };
  }
}

function sentence(message: string): string {
  const s = message.charAt(0).toUpperCase() + message.slice(1);
  return s.endsWith(".") ? s : s + ".";
}
