for (const k of Object.keys(require.cache)) delete require.cache[k];
module.exports = 1;
