/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");

const when = new Date(input.at || "2026-01-01T00:00:00Z");
const fmt = new Intl.DateTimeFormat("en-GB", { timeZone: input.tz || "UTC", dateStyle: "medium", timeStyle: "short" });
console.log(JSON.stringify({ local: fmt.format(when) }));
