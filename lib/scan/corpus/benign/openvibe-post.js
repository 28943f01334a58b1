/* eslint-disable */
// net: openvibe-only
// expect: net.use
import { readFileSync } from "node:fs";

const input = JSON.parse(readFileSync(0, "utf8") || "{}");

const res = await fetch("https://api.openvibe.services/v1/notes", {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ text: String(input.text || "").slice(0, 500) }),
});
console.log(JSON.stringify({ status: res.status }));
