// People, sessions and personal API tokens: the public surface of lib/auth.
export { hashPassword, verifyPassword } from "./password";
export { createUser, getDefaultProject, getUserById, normalizeEmail, signUpSchema, type PublicUser } from "./users";
export { signInWithPassword, clientIp, credentialsFormError } from "./credentials";
export { signInWithGithub } from "./github";
export {
  createApiToken,
  listApiTokens,
  MAX_TOKEN_DAYS,
  revokeApiToken,
  verifyApiToken,
  type ApiTokenView,
} from "./api-tokens";
export { authOptions, sessionCookieName } from "./next-auth";
export { apiPrincipal, getSession, requireUser, safeNextPath, scopedPrincipal, sessionPrincipal } from "./session";
export { API_TOKEN_SCOPES, LEGACY_SCOPES, SCOPE_DESCRIPTIONS, isApiTokenScope, type ApiTokenScope } from "./scopes";
export type { Principal, SessionUser } from "./principal";
