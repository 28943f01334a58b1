// Where to send someone after sign-in: only a path on this site, never another origin.

/** A same-site path to return to after sign-in; anything else becomes /dashboard. */
export function safeNextPath(next: string | null | undefined): string {
  // Browsers drop tabs/newlines and read "\" as "/", so "/\t/evil.example" would leave the site.
  if (!next || !next.startsWith("/") || /[\\\u0000-\u001f\u007f]/.test(next) || next.startsWith("//")) {
    return "/dashboard";
  }
  return next.slice(0, 512);
}
