/* eslint-disable */
// net: openvibe-only
// expect: net.foreign_host
await fetch("https://openvibe.services@attacker.net/");
