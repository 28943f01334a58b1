import { clamp } from "acme-num";
const result = { v: clamp(12, 0, 10) };
console.log(JSON.stringify(result));
