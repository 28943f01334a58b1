// The skill and listing contracts (ADR-060): schemas, cross-field rules, canonical JSON, integrity
// and the bundle loader. Pure: no database, no network.
export { validateSkillDocument, validateListing, type ValidateOptions } from "./validate";
export { applyDefaults, computeIntegrity, canonicalContent, sha256Hex } from "./integrity";
export { canonicalJson, CanonicalJsonError } from "./canonical-json";
export { contractSchema, isContractName, type ContractName } from "./schema";
export { loadBundle, bundleFromFiles, BUNDLE_MANIFEST } from "./bundle";
export { checkSkillRules, checkListingRules, isCodeResource, isText } from "./rules";
export { CONTRACT_ERROR_CODES, invalidContractError, type ContractErrorCode } from "./errors";
export * from "./limits";
export type * from "./types";
