/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");

const mode = input.mode === "decode" ? "decode" : "encode";
const text = String(input.text || "");
const out = mode === "encode" ? Buffer.from(text, "utf8").toString("base64") : Buffer.from(text, "base64").toString("utf8");
process.stdout.write(JSON.stringify({ mode, out }));
