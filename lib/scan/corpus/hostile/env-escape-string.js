/* eslint-disable */
// net: deny
// expect: env.read
const name = "\x65\x6e\x76";
console.log(process[name].HOME);
