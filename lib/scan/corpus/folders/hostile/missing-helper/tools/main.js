const h = require("./helpers/format.js");
const result = h;
console.log(JSON.stringify(result));
