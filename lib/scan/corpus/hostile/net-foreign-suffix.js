/* eslint-disable */
// net: openvibe-only
// expect: net.foreign_host
const r = await fetch("https://evil-openvibe.services/x");
console.log(r.status);
