// The bench's agents, in a process of their own so that their HTTP client's CPU is not counted as
// the server's: POST /api/v1/steps (or `path`) over node:http, as `{ token }` lists sent over IPC say.
//   { id, url, path, body, tokens, together: false } calls one after another on one kept-alive socket;
//   { ..., together: true } sends every call at once, each on a new connection (first calls of
//   separate agents). Answers { id, ms: [...] } in the order of `tokens`, or { id, error }.
import http from "node:http";

function post(url, token, body, agent) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const ms = performance.now() - started;
          const text = Buffer.concat(chunks).toString("utf8");
          let answer;
          try {
            answer = JSON.parse(text);
          } catch {
            answer = null;
          }
          if (res.statusCode !== 201 || answer?.status !== "queued")
            reject(new Error(`a call answered ${res.statusCode} ${text.slice(0, 300)}`));
          else resolve(ms);
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const kept = new http.Agent({ keepAlive: true, maxSockets: 1 });
const fresh = new http.Agent({ keepAlive: false, maxSockets: Infinity });

process.on("message", async ({ id, url, path, body, tokens, together }) => {
  try {
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
