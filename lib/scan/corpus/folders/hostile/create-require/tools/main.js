import { createRequire } from "node:module";
const load = createRequire(import.meta.url);
const helper = load("./helper.js");
const result = helper;
console.log(JSON.stringify(result));
