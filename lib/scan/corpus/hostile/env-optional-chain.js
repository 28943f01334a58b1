/* eslint-disable */
// net: deny
// expect: env.read
const t = process?.["env"]?.GITHUB_TOKEN;
console.log(JSON.stringify({ t }));
