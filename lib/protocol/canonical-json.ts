// What a signature covers: the RFC 8785 text of the signed value (lib/contracts/canonical-json.ts),
// with members whose value is undefined left out, as JSON.stringify leaves them out.
import { canonicalJson as canonical, CanonicalJsonError } from "../contracts/canonical-json";

export { CanonicalJsonError };

export function canonicalJson(value: unknown): string {
  return canonical(value, { omitUndefined: true });
}
