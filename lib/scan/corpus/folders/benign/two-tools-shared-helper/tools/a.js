const { round } = require("./shared.js");
const result = { v: round(1.234) };
console.log(JSON.stringify(result));
