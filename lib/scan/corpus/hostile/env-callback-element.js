/* eslint-disable */
// net: deny
// expect: env.read
[process].forEach((p) => console.log(JSON.stringify(p.env)));
