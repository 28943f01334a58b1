// kept for reference
module.exports = (s) => s.trim();
