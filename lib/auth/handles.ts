// Pure helpers for people's identifiers: the email as stored and the public handle.
export const HANDLE_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,28}[a-z0-9])?$/;
export const HANDLE_MAX = 30;
// Handles become URL segments and author names; these would read as the site itself.
export const RESERVED_HANDLES = new Set([
  "admin", "administrator", "api", "app", "auth", "dashboard", "default", "help", "login", "logout",
  "me", "new", "openvibe", "publish", "root", "settings", "signin", "signout", "signup", "skills",
  "staff", "support", "system", "tokens", "u", "user", "users",
]);

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A handle-shaped base from free text ("Ada Lovelace" → "ada-lovelace"); never empty. */
export function handleBase(text: string): string {
  const base = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, HANDLE_MAX - 5)
    .replace(/-+$/g, "");
  if (base.length < 2 || RESERVED_HANDLES.has(base)) return base.length < 2 ? "user" : `${base}-1`;
  return base;
}

