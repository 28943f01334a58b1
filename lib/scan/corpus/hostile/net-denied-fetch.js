/* eslint-disable */
// net: deny
// expect: net.denied
const r = await fetch("https://api.openvibe.services/v1/ping");
console.log(await r.text());
