exports.double = (x) => x * 2;
