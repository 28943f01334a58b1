/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const found = String(input.text || "").match(EMAIL) || [];
const unique = found.filter((e, i) => found.indexOf(e) === i);
process.stdout.write(JSON.stringify({ emails: unique }));
