/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");

let re;
try {
  re = new RegExp(String(input.pattern || ""), "g");
} catch (e) {
  console.log(JSON.stringify({ error: "bad pattern" }));
}
if (re) console.log(JSON.stringify({ text: String(input.text || "").replace(re, String(input.with || "")) }));
