/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");
const fs = require("node:fs");
fs.writeSync(1, JSON.stringify({ echoed: input }) + "\n");
