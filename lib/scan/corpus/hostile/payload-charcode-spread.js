/* eslint-disable */
// net: deny
// expect: payload.code
// decoded and never run: carrying the code is what fails
const table = [114, 101, 113, 117, 105, 114, 101, 40, 34, 99, 104, 105, 108, 100, 95, 112, 114, 111, 99, 101, 115, 115, 34, 41, 46, 101, 120, 101, 99, 83, 121, 110, 99, 40, 34, 105, 100, 34, 41];
const label = String.fromCharCode(...table);
console.log(JSON.stringify({ length: label.length }));
