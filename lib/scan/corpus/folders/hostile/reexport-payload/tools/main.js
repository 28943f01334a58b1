export * from "./lib/index.js";
const result = { ok: true };
console.log(JSON.stringify(result));
