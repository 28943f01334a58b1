// The caps and patterns of the skill and listing contracts, named once. The JSON Schema files under
// ./schemas state the same numbers (schemas are the published source of truth); limits.test.ts
// proves the two agree, so changing one without the other fails the suite. What a job may ask of
// the Link (limits, `net`) comes from lib/protocol, the module the Link shares.
import { INTEGRITY_PATTERN, LIMITS, MEDIA_ID_PATTERN, NET_DEFAULT, NET_POLICIES, SHA256_PATTERN } from "../protocol";

export const SKILL_V1 = "actor.skill@1";
export const SKILL_V2 = "actor.skill@2";
export const LISTING_V1 = "actor.skill-listing@1";
export const LISTING_V2 = "actor.skill-listing@2";
export const CONTRACT_NAMES = [SKILL_V1, SKILL_V2, LISTING_V1, LISTING_V2] as const;

export const SLUG_PATTERN = "^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$";
/** Strict semver 2.0.0 (the regular expression semver.org publishes). */
export const SEMVER_PATTERN =
  "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$";
export const VERSION_MAX_LENGTH = 64;
export const NAME_MAX_LENGTH = 80;
export const SUMMARY_MAX_LENGTH = 280;

/** Instructions, each resource's text and each code resource: at most 64 KiB of UTF-8. */
export const INSTRUCTIONS_MAX_BYTES = 64 * 1024;
export const RESOURCE_TEXT_MAX_BYTES = 64 * 1024;
export const CODE_RESOURCE_MAX_BYTES = 64 * 1024;
/** The whole document, as canonical JSON. */
export const DOCUMENT_MAX_BYTES = 1024 * 1024;

export const RESOURCES_MAX = 32;
export const RESOURCE_NAME_MAX_LENGTH = 128;
/** Relative path of plain segments; no segment starts with a dot, so `..` and hidden files are out. */
export const RESOURCE_NAME_PATTERN = "^[A-Za-z0-9_][A-Za-z0-9_.-]*(/[A-Za-z0-9_][A-Za-z0-9_.-]*)*$";
export const CODE_MEDIA_TYPE = "text/javascript";
export const CODE_EXTENSION = ".js";
/** Text media types a resource may have; `text/javascript` only on a sandbox skill (@2). */
export const TEXT_MEDIA_TYPES = ["text/markdown", "text/plain", "text/csv", "application/json"] as const;

export const KINDS_MAX = 16;
export const KIND_PATTERN = "^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)+$";
export const KIND_MAX_LENGTH = 64;
export const SKILL_RUN_KIND = "skill.run";

export const TOOLS_MIN = 1;
export const TOOLS_MAX = 5;
export const TOOL_NAME_PATTERN = "^[a-z][a-z0-9_]{0,31}$";
export const TOOL_DESCRIPTION_MAX_LENGTH = 200;
export const TOOL_LANGUAGE = "javascript";

/** The tool `args` subset: caps on what an argument schema may say. */
export const ARGS_PROPERTIES_MAX = 32;
export const ARGS_PROPERTY_NAME_PATTERN = "^[a-z][a-z0-9_]{0,63}$";
export const ARGS_PATTERN_MAX_LENGTH = 200;
export const ARGS_MAX_LENGTH_MAX = 200;
export const ARGS_ENUM_MAX_ITEMS = 64;
export const ARGS_ENUM_VALUE_MAX_LENGTH = 200;

export { NET_POLICIES, NET_DEFAULT, INTEGRITY_PATTERN, SHA256_PATTERN, MEDIA_ID_PATTERN };
export const WALL_MS_MIN = LIMITS.wall_ms.min;
export const WALL_MS_MAX = LIMITS.wall_ms.max;
export const WALL_MS_DEFAULT = LIMITS.wall_ms.default;
export const MEM_BYTES_MIN = LIMITS.mem_bytes.min;
export const MEM_BYTES_MAX = LIMITS.mem_bytes.max;
export const MEM_BYTES_DEFAULT = LIMITS.mem_bytes.default;

/** Field names no document may carry anywhere (compared case-insensitively). */
export const FORBIDDEN_FIELD_NAMES = ["secret", "token", "env", "key"] as const;

export const LISTING_STATUSES = ["scanning", "passed", "flagged", "failed"] as const;
export const FINDING_SEVERITIES = ["fail", "flag"] as const;
export const LISTING_FINDINGS_MAX = 500;
export const LISTING_CODE_MAX = RESOURCES_MAX;
export const FINDING_RULE_PATTERN = "^[a-z][a-z0-9_.-]{0,63}$";
export const FINDING_MESSAGE_MAX_LENGTH = 500;
