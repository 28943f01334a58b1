// Which link targets Markdown may keep: absolute http(s) and mailto only. Everything else
// (javascript:, data:, relative paths, protocol-relative //host) is refused.

/** The target when it is an absolute http(s) or mailto URL, else null. */
export function safeHref(raw: string): string | null {
  const trimmed = raw.trim();
  // Control characters and whitespace inside a scheme are how "java\nscript:" tricks work.
  if (!trimmed || trimmed.length > 2048 || /[\u0000-\u001f\u007f\s]/.test(trimmed)) return null;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null;
  }
  if (url.protocol === "http:" || url.protocol === "https:") return url.href;
  if (url.protocol === "mailto:") return trimmed;
  return null;
}
