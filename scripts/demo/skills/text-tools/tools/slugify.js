// slugify: turns a title into a URL-safe slug ("Crème brûlée: 10 tips!" -> "creme-brulee-10-tips").
// Input: { "text": string, "separator"?: "-" | "_", "max_length"?: integer }  Output: { "slug": string }
"use strict";

const LIGATURES = { ß: "ss", æ: "ae", œ: "oe", ø: "o", đ: "d", ł: "l", þ: "th", "&": " and " };

function slugify(text, separator, maxLength) {
  let s = text.toLowerCase().replace(/[ßæœøđłþ&]/g, (c) => LIGATURES[c]);
  s = s.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  s = s
    .replace(/[^a-z0-9]+/g, separator)
    .split(separator)
    .filter(Boolean)
    .join(separator);
  if (maxLength > 0 && s.length > maxLength) {
    // Cut at a word boundary when there is one, so slugs do not end mid-word.
    const cut = s.slice(0, maxLength + 1);
    const at = cut.lastIndexOf(separator);
    s = at > 0 ? cut.slice(0, at) : s.slice(0, maxLength);
  }
  return s;
}

function run(input) {
  if (typeof input.text !== "string") throw new Error("`text` must be a string.");
  const separator = input.separator === "_" ? "_" : "-";
  const maxLength = Number.isInteger(input.max_length) ? input.max_length : 0;
  if (maxLength < 0) throw new Error("`max_length` must be 0 (no limit) or more.");
  return { slug: slugify(input.text, separator, maxLength) };
}

let raw = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  raw += chunk;
});
process.stdin.on("end", () => {
  try {
    process.stdout.write(JSON.stringify(run(JSON.parse(raw || "{}"))));
  } catch (err) {
    process.stdout.write(JSON.stringify({ error: err.message }));
    process.exitCode = 1;
  }
});
