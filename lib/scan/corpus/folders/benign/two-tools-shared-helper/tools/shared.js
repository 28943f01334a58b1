exports.round = (x) => Math.round(x * 100) / 100;
