/* eslint-disable */
// net: deny
// expect: env.read
class Box {
  static open() {
    return globalThis.process;
  }
}
console.log(JSON.stringify(Box.open().env));
