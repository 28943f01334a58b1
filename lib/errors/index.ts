// The one error class of the app. Throw it from lib/ with a stable code; route handlers turn it
// into the one JSON shape `{ error: { code, message, details? } }`.
import { type ErrorCode, statusFor } from "./codes";

export { ERROR_STATUS, isErrorCode, statusFor, type ErrorCode } from "./codes";

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: unknown;

  constructor(code: ErrorCode, message: string, options: { details?: unknown; status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.status = options.status ?? statusFor(code);
    this.details = options.details;
  }
}

export type ErrorBody = { error: { code: string; message: string; details?: unknown; requestId?: string } };

export function errorBody(err: AppError, requestId?: string): ErrorBody {
  return {
    error: {
      code: err.code,
      message: err.message,
      ...(err.details === undefined ? {} : { details: err.details }),
      ...(requestId ? { requestId } : {}),
    },
  };
}

export const notFound = (what = "That") => new AppError("not_found", `${what} was not found.`);
