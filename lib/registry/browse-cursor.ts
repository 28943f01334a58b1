// The keyset cursor of a browse or search page: the sort key of the last skill shown (relevance
// tier, installs, publish time, slug), so the next page starts strictly after it whatever was
// published meanwhile. Opaque in URLs (base64url of a JSON array); pure, no database.
import { z } from "zod";

export type BrowseCursor = {
  /**
   * Which field the query matched in: 5 the slug, 4 the author's handle, 3 the name or a slug or
   * handle prefix, 2 summary, 1 instructions, 0 without words (lib/registry/search-names.ts).
   */
  tier: number;
  installs: number;
  /** Milliseconds since the epoch (the column keeps milliseconds). */
  publishedAt: number;
  slug: string;
};

export const MAX_CURSOR_CHARS = 400;

const shape = z.tuple([
  z.number().int().min(0).max(5),
  z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1),
  z.number().int().min(0).max(8.64e15),
  z.string().min(1).max(200),
]);

export function encodeCursor(c: BrowseCursor): string {
  return Buffer.from(JSON.stringify([c.tier, c.installs, c.publishedAt, c.slug]), "utf8").toString("base64url");
}

/** The cursor in `text`, or null when it is not one this module made. */
export function decodeCursor(text: string): BrowseCursor | null {
  if (text.length > MAX_CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const parsed = shape.safeParse(raw);
  if (!parsed.success) return null;
  const [tier, installs, publishedAt, slug] = parsed.data;
  return { tier, installs, publishedAt, slug };
}
