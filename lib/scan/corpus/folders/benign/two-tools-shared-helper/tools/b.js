const { round } = require("./shared.js");
const result = { v: round(9.876) };
console.log(JSON.stringify(result));
