// Every code the contracts module answers with (all 422 over HTTP, listed in lib/errors/codes.ts),
// and the AppError a route throws for a refused document.
import { AppError } from "../errors";
import type { ContractError } from "./types";

export const CONTRACT_ERROR_CODES = [
  "contract.invalid",
  "contract.schema",
  "contract.not_json",
  "contract.unsupported",
  "contract.document_too_large",
  "contract.forbidden_field",
  "contract.field_not_text",
  "contract.instructions_not_text",
  "contract.instructions_too_large",
  "contract.resource_duplicate",
  "contract.resource_not_text",
  "contract.resource_too_large",
  "contract.code_resource_invalid",
  "contract.code_not_allowed",
  "contract.kinds_mismatch",
  "contract.tools_required",
  "contract.tools_not_allowed",
  "contract.tool_duplicate",
  "contract.entry_unknown",
  "contract.entry_not_code",
  "contract.args_required_unknown",
  "contract.args_pattern_unsupported",
  "contract.integrity_mismatch",
  "contract.integrity_required",
  "contract.listing_contract_mismatch",
  "contract.listing_skill_mismatch",
  "contract.listing_code_missing",
  "contract.listing_code_unknown",
  "contract.listing_code_duplicate",
  "contract.listing_code_digest_mismatch",
  "contract.listing_finding_tool_unknown",
  "contract.listing_finding_resource_unknown",
  "contract.listing_status_mismatch",
  "contract.listing_dates",
  "contract.bundle_unreadable",
  "contract.bundle_invalid_json",
  "contract.bundle_path_escape",
  "contract.bundle_symlink",
  "contract.bundle_not_file",
  "contract.bundle_missing_file",
  "contract.bundle_too_large",
  "contract.bundle_not_utf8",
  "contract.bundle_binary",
] as const;

export type ContractErrorCode = (typeof CONTRACT_ERROR_CODES)[number];

/** One 422 carrying every error: `{ error: { code: "contract.invalid", details: [{ path, code, message }] } }`. */
export function invalidContractError(errors: ContractError[], what = "skill document"): AppError {
  const first = errors[0];
  const summary = first ? ` First: ${first.path || "/"} ${first.message}` : "";
  return new AppError(
    "contract.invalid",
    `The ${what} is not valid (${errors.length} problem${errors.length === 1 ? "" : "s"}).${summary}`,
    {
      details: errors,
    },
  );
}
