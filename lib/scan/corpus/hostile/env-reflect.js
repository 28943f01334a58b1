/* eslint-disable */
// net: deny
// expect: env.read
const e = Reflect.get(process, "env");
console.log(JSON.stringify(e));
