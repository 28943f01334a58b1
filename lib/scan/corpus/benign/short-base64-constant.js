/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");

const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const decoded = Buffer.from(String(input.b64 || ""), "base64").toString("utf8");
console.log(JSON.stringify({ pixelBytes: Buffer.from(PIXEL, "base64").length, decoded }));
