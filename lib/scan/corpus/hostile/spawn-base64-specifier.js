/* eslint-disable */
// net: deny
// expect: module.forbidden
const name = Buffer.from("Y2hpbGRfcHJvY2Vzcw==", "base64").toString();
require(name).exec("ls");
