// Every stable error code and the HTTP status it answers with. Codes are dotted and never change
// meaning; messages are for people and may.
export const ERROR_STATUS = {
  "request.invalid_json": 400,
  "request.invalid": 422,
  "request.too_large": 413,
  "request.unsupported_media_type": 415,
  "auth.required": 401,
  "auth.invalid_credentials": 401,
  "auth.rate_limited": 429,
  "auth.email_taken": 409,
  "auth.token_invalid": 401,
  "auth.token_revoked": 401,
  "auth.forbidden": 403,
  "not_found": 404,
  "token.not_found": 404,
  "media.not_found": 404,
  "media.integrity_mismatch": 500,
  "media.too_large": 413,
  "internal": 500,
} as const satisfies Record<string, number>;

export type KnownErrorCode = keyof typeof ERROR_STATUS;
/** Later domains add their codes to ERROR_STATUS; any dotted code is accepted with an explicit status. */
export type ErrorCode = KnownErrorCode | (string & {});

export function statusFor(code: ErrorCode, fallback = 400): number {
  return (ERROR_STATUS as Record<string, number>)[code] ?? fallback;
}
