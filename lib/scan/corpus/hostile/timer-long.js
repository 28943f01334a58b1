/* eslint-disable */
// net: deny
// expect: timer.long
setTimeout(() => console.log("late"), 60 * 1000);
