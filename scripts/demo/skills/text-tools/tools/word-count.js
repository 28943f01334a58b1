// word_count: words, characters, sentences, reading time and the most frequent words of a text.
// Input: { "text": string, "top"?: integer }  Output: { words, characters, ..., top_words: [{ word, count }] }
"use strict";

// Common English words that would otherwise top every list.
const STOP = new Set(
  "a an and are as at be but by for from has have he her his i in is it its of on or our she so that the their them they this to was we were will with you your".split(
    " ",
  ),
);
const WORDS_PER_MINUTE = 230;

function run(input) {
  if (typeof input.text !== "string") throw new Error("`text` must be a string.");
  const text = input.text;
  const top = Number.isInteger(input.top) ? Math.max(0, Math.min(input.top, 20)) : 5;
  const words = text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) || [];
  const sentences = text.split(/[.!?]+(?:\s|$)/).filter((s) => /[\p{L}\p{N}]/u.test(s)).length;
  const counts = new Map();
  for (const w of words) {
    const key = w.toLowerCase();
    if (!STOP.has(key)) counts.set(key, (counts.get(key) || 0) + 1);
  }
  const topWords = [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, top)
    .map(([word, count]) => ({ word, count }));
  return {
    words: words.length,
    characters: [...text].length,
    characters_no_spaces: [...text.replace(/\s/g, "")].length,
    sentences,
    paragraphs: text.split(/\n\s*\n/).filter((p) => p.trim() !== "").length,
    reading_time_seconds: Math.ceil((words.length / WORDS_PER_MINUTE) * 60),
    top_words: topWords,
  };
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
