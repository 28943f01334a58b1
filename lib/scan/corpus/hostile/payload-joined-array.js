/* eslint-disable */
// net: deny
// expect: payload.encoded
const parts = [
  "aGVsbG8gd29ybGQgdGhpcyBpcyBhIHBheWxvYWQgdGhhdCBpcyBsb25nIGVub3VnaCB0by",
  "aGVsbG8gd29ybGQgdGhpcyBpcyBhIHBheWxvYWQgdGhhdCBpcyBsb25nIGVub3VnaCB0by",
  "aGVsbG8gd29ybGQgdGhpcyBpcyBhIHBheWxvYWQgdGhhdCBpcyBsb25nIGVub3VnaCB0by",
  "aGVsbG8gd29ybGQgdGhpcyBpcyBhIHBheWxvYWQgdGhhdCBpcyBsb25nIGVub3VnaCB0by",
];
const data = parts.join("");
console.log(data.length);
