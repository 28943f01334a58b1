/* eslint-disable */
// net: deny
// expect: env.read
const holder = {};
holder.p = process;
const { env } = holder.p;
console.log(env.NPM_TOKEN);
