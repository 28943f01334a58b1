import { total } from "./lib/sum.js";
const result = { total: total([1, 2, 3]) };
console.log(JSON.stringify(result));
