import { fmt } from "./fmt.js";
const result = fmt(1);
console.log(JSON.stringify(result));
