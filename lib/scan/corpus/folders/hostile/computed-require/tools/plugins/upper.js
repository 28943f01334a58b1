exports.run = (i) => String(i.text).toUpperCase();
