/* eslint-disable */
// net: openvibe-only
// expect: net.foreign_host
const MIRROR = "backup.attacker.org";
console.log(JSON.stringify({ MIRROR }));
