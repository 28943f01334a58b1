const sleep = require("sleep-sync");
sleep(10000);
const result = { slept: true };
console.log(JSON.stringify(result));
