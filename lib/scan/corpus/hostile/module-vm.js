/* eslint-disable */
// net: deny
// expect: module.forbidden
import vm from "vm";
console.log(vm.runInNewContext("1+1"));
