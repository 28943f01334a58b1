/* eslint-disable */
// net: deny
// expect: env.read
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");
process.stdout.write(JSON.stringify({ home: process.env.HOME }));
