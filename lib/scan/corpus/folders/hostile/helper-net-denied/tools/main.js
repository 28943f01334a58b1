import { send } from "./report.js";
await send({ ok: true });
const result = { sent: true };
console.log(JSON.stringify(result));
