/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");

const config = { env: input.env || "production", region: "eu-west" };
const tool = { name: "env-label", env: config.env };
console.log(JSON.stringify({ label: `${tool.name}:${tool.env}`, env: config.env }));
