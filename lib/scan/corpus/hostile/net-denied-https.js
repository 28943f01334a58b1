/* eslint-disable */
// net: deny
// expect: net.denied
const https = require("https");
https.get("https://example.com", (res) => res.pipe(process.stdout));
