export default (who) => `hello ${who}`;
