/* eslint-disable */
// net: deny
// expect: env.read
function pick(obj, key) {
  return obj[key];
}
console.log(JSON.stringify(pick(process, "env")));
