/* eslint-disable */
// net: openvibe-only
// expect: net.foreign_host
const r = await fetch("http://localhost:8080/admin");
console.log(r.status);
