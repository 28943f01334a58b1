/* eslint-disable */
// net: openvibe-only
// expect: net.foreign_host
const r = await fetch("http://169.254.169.254/latest/meta-data/");
console.log(await r.text());
