// The bench's agents, in a process of their own so that their HTTP client's CPU is not counted as
// the server's. Over node:http, as messages sent over IPC say:
//   { id, url, path, body, tokens, together: false } POSTs calls one after another on one
//     kept-alive socket; together: true sends every call at once, each on a new connection (first
//     calls of separate agents). Answers { id, ms: [...] } in the order of `tokens`, or { id, error }.
//   { id, url, run: { token, body } } makes one call to its end, as an agent does: POST
//     /api/v1/steps with `Prefer: wait=25`, then GET /api/v1/steps/<id>?wait=25 while it has not
//     ended. Answers { id, ms, step } or { id, error }.
import http from "node:http";

// pending_approval ends a run too: with "always allow" it would mean the grant did not hold.
const TERMINAL = new Set([
  "succeeded",
  "failed",
  "expired",
  "cancelled",
  "denied",
  "insufficient_balance",
  "no_node",
  "pending_approval",
]);

function send(url, { method, token, body, agent, headers = {} }) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined
            ? {}
            : { "content-type": "application/json", "content-length": Buffer.byteLength(body) }),
          ...headers,
        },
      },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let answer = null;
          try {
            answer = JSON.parse(text);
          } catch {
            answer = null;
          }
          resolve({ status: res.statusCode, answer, text });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function post(url, token, body, agent) {
  const started = performance.now();
  const { status, answer, text } = await send(url, { method: "POST", token, body, agent });
  if (status !== 201 || answer?.status !== "queued") throw new Error(`a call answered ${status} ${text.slice(0, 300)}`);
  return performance.now() - started;
}

async function run(url, { token, body }) {
  const started = performance.now();
  const created = await send(new URL("/api/v1/steps", url), {
    method: "POST",
    token,
    body,
    agent: runs,
    headers: { prefer: "wait=25" },
  });
  if (created.status !== 201 || !created.answer?.id) return { ms: 0, step: { status: `http_${created.status}` } };
  let step = created.answer;
  while (!TERMINAL.has(step.status)) {
    const polled = await send(new URL(`/api/v1/steps/${step.id}?wait=25`, url), { method: "GET", token, agent: runs });
    if (polled.status !== 200) return { ms: 0, step: { status: `http_${polled.status}` } };
    step = polled.answer;
  }
  return { ms: performance.now() - started, step };
}

const kept = new http.Agent({ keepAlive: true, maxSockets: 1 });
const fresh = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const runs = new http.Agent({ keepAlive: true, maxSockets: Infinity });

process.on("message", async (message) => {
  const { id, url } = message;
  try {
    if (message.run) {
      process.send({ id, ...(await run(url, message.run)) });
      return;
    }
    const { path, body, tokens, together } = message;
    const target = new URL(path, url);
    let ms;
    if (together) ms = await Promise.all(tokens.map((t) => post(target, t, body, fresh)));
    else {
      ms = [];
      for (const t of tokens) ms.push(await post(target, t, body, kept));
    }
    process.send({ id, ms });
  } catch (err) {
    process.send({ id, error: String(err?.stack ?? err) });
  }
});
process.on("disconnect", () => process.exit(0));
