// TypeScript shapes of the contracts. The JSON Schema files are the source of truth; these types
// describe a document only after validateSkillDocument / validateListing accepted it.

import type { NetPolicy } from "../protocol/net";

export type { NetPolicy };

export type Resource = { name: string; media_type: string; text: string };

export type ArgScalar =
  | { type: "string"; enum?: string[]; maxLength?: number; pattern?: string }
  | { type: "number"; enum?: number[] }
  | { type: "integer"; enum?: number[] }
  | { type: "boolean" };
export type ArgProperty = ArgScalar | { type: "array"; items: ArgScalar };
export type ToolArgs = {
  type: "object";
  properties: Record<string, ArgProperty>;
  required?: string[];
  additionalProperties?: false;
};

export type ToolLimits = { wall_ms: number; mem_bytes: number };

export type Tool = {
  name: string;
  description: string;
  language: "javascript";
  entry: string;
  args: ToolArgs;
  net: NetPolicy;
  limits: ToolLimits;
};

type SkillCommon = {
  slug: string;
  version: string;
  name: string;
  summary: string;
  instructions: string;
  resources: Resource[];
  requires: { kinds: string[] };
  integrity: string;
};

export type SkillDocumentV1 = SkillCommon & { contract: "actor.skill@1" };
export type SkillDocumentV2 = SkillCommon & {
  contract: "actor.skill@2";
  runs: "prompt" | "sandbox";
  tools?: Tool[];
};
/** A validated skill document: defaults applied and `integrity` computed (or verified). */
export type SkillDocument = SkillDocumentV1 | SkillDocumentV2;

export type Finding = {
  rule: string;
  severity: "fail" | "flag";
  tool?: string;
  resource: string;
  line: number;
  column: number;
  message: string;
};

export type ListingCode = { name: string; media_id: string; sha256: string };

export type Listing = {
  contract: "actor.skill-listing@1" | "actor.skill-listing@2";
  skill: { slug: string; version: string; integrity: string };
  status: "scanning" | "passed" | "flagged" | "failed";
  findings: Finding[];
  code?: ListingCode[];
  published_at: string;
  retired_at?: string;
};

/** One problem with a document, at a JSON pointer into it, with a stable dotted code. */
export type ContractError = {
  path: string;
  code: string;
  message: string;
  /** Set on validateListing errors that are about the skill document rather than the listing. */
  in?: "document";
};

export type Result<T> = { ok: true; document: T } | { ok: false; errors: ContractError[] };
