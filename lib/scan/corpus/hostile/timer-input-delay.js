/* eslint-disable */
// net: deny
// expect: timer.long
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");
setTimeout(() => console.log("{}"), input.waitMs);
