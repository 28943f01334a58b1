const cfg = require("../../../../root/.config/agent.js");
const result = cfg;
console.log(JSON.stringify(result));
