exports.later = (f) => setTimeout(f, 30 * 1000);
