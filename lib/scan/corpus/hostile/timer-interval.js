/* eslint-disable */
// net: deny
// expect: timer.long
const every = 10000;
const t = setInterval(() => {}, every);
clearInterval(t);
