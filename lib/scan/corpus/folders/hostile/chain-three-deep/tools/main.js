const a = require("./a");
const result = a.run();
console.log(JSON.stringify(result));
