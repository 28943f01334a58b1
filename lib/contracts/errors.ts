// The AppError a route throws for a refused document; the codes it carries are in error-codes.ts.
import { AppError } from "../errors";
import type { ContractError } from "./types";

export { CONTRACT_ERROR_CODES, type ContractErrorCode } from "./error-codes";

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
