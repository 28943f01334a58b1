/* eslint-disable */
// net: openvibe-only
// expect: net.foreign_host
const r = await fetch("https://openvibe.services.evil.io/x");
console.log(r.status);
