/* eslint-disable */
// net: openvibe-only
// expect: net.use
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");

const api = new URL("/v1/status", "https://status.openvibe.services");
fetch(api)
  .then((r) => r.json())
  .then((body) => console.log(JSON.stringify({ ok: body.ok === true, region: input.region || "eu" })));
