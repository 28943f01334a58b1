/* eslint-disable */
// net: deny
// expect: payload.code
const s = atob("cHJvY2Vzcy5lbnYuSE9NRQ==");
console.log(s);
