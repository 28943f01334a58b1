/* eslint-disable */
// net: deny
// expect: env.read
const { env: vars } = process;
console.log(JSON.stringify(vars));
