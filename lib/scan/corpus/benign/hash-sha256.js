/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");

const { createHash } = require("node:crypto");
const digest = createHash("sha256").update(String(input.text || "")).digest("hex");
console.log(JSON.stringify({ sha256: digest }));
