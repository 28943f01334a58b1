const { greet } = require("./lib/helper.js");
const result = { text: greet("you") };
console.log(JSON.stringify(result));
