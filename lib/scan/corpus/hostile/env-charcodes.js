/* eslint-disable */
// net: deny
// expect: env.read
const key = String.fromCharCode(101, 110, 118);
console.log(JSON.stringify(process[key]));
