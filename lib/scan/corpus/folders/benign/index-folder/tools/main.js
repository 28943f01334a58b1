const util = require("./util");
const result = { v: util.double(2) };
console.log(JSON.stringify(result));
