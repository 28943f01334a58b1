// What a personal API token may do. A browser session may do everything; a token only what its
// scopes name. Topping up and managing tokens are never a token's to do (session-only routes).
export const API_TOKEN_SCOPES = [
  "skills:read",
  "skills:publish",
  "installs",
  "agents",
  "links",
  "runs:read",
  "billing:read",
] as const;

export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** What each scope allows, as the tokens page and README show it. */
export const SCOPE_DESCRIPTIONS: { readonly [S in ApiTokenScope]: string } = {
  "skills:read": "Read your skills (any token may read /api/v1/me)",
  "skills:publish": "Publish and retire skill versions",
  installs: "Install, update and uninstall skills; list and revoke always-allow grants",
  agents: "Create, list and revoke agents; set their allowances",
  links: "Pair, list and remove Links; choose where a project's runs go",
  "runs:read": "Read runs, steps, approvals, audit and live events",
  "billing:read": "Read the balance and usage",
};

/** What a token created before scopes existed could do, and what a token gets when none are named. */
export const LEGACY_SCOPES: readonly ApiTokenScope[] = ["skills:read", "skills:publish"];

export function isApiTokenScope(value: string): value is ApiTokenScope {
  return (API_TOKEN_SCOPES as readonly string[]).includes(value);
}

/** The scopes as stored: known ones only, each once, in the table's order. */
export function normalizeScopes(scopes: readonly string[]): ApiTokenScope[] {
  return API_TOKEN_SCOPES.filter((s) => scopes.includes(s));
}

/** The longest a personal API token may live. */
export const MAX_TOKEN_DAYS = 366;
