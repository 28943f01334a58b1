/* eslint-disable */
// net: openvibe-only
// expect: net.foreign_host
const host = "attack" + "er.com";
console.log(host);
