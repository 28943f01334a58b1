/* eslint-disable */
// net: deny
// expect: net.denied
const f = globalThis["fet" + "ch"];
f("https://a.openvibe.services");
