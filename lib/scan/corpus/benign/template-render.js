/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");

const tpl = String(input.template || "Hello, {{name}}!");
const out = tpl.replace(/\{\{\s*([a-zA-Z0-9_]+)\s*\}\}/g, (_, k) => String(input.vars?.[k] ?? ""));
console.log(JSON.stringify({ out }));
