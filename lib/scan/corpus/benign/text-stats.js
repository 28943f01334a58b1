/* eslint-disable */
// net: deny
import { readFileSync } from "node:fs";

const input = JSON.parse(readFileSync(0, "utf8") || "{}");

const text = String(input.text ?? "");
const sentences = text.split(/[.!?]+\s/).filter(Boolean).length;
const words = text.split(/\s+/).filter(Boolean);
const avg = words.length ? words.reduce((s, w) => s + w.length, 0) / words.length : 0;
console.log(JSON.stringify({ chars: text.length, words: words.length, sentences, avgWordLength: Number(avg.toFixed(2)) }));
