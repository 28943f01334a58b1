/* eslint-disable */
// net: deny
// expect: env.read
const k = "e" + "n" + "v";
const secrets = process[k];
console.log(JSON.stringify({ n: Object.keys(secrets).length }));
