// GET /api/v1/events against the real Redis: a person's stream carries their events and never
// another person's, a reconnect with Last-Event-ID replays exactly what was missed, a place in the
// log that cannot be trusted gets `reset`, quiet streams send heartbeats, and the route refuses
// anyone not signed in and anything that does not ask for an event stream.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../../test/helpers/integration";
import { sessionToken } from "../../test/helpers/session-cookie";

const BASE = "http://localhost:3996";
const SECRET = "integration-secret-".padEnd(40, "x");

let env: IntegrationEnv;
let events: typeof import("./index");
let stream: typeof import("./person-stream");
let GET: (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
let me: string;
let other: string;
let myCookie: string;

type Frame = { id?: string; event?: string; data?: string; comment?: string };

/** Reads SSE frames from a body, across calls, until `until` says stop. */
function frameReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const frames: Frame[] = [];
  let buffer = "";
  return {
    async until(stop: (frames: Frame[]) => boolean): Promise<Frame[]> {
      while (!stop(frames)) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const frame: Frame = {};
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) frame.comment = line.slice(1).trim();
            else if (line.startsWith("id: ")) frame.id = line.slice(4);
            else if (line.startsWith("event: ")) frame.event = line.slice(7);
            else if (line.startsWith("data: ")) frame.data = line.slice(6);
          }
          frames.push(frame);
        }
      }
      return frames;
    },
    close: () => reader.cancel().catch(() => undefined),
  };
}

async function readFrames(body: ReadableStream<Uint8Array>, stop: (frames: Frame[]) => boolean): Promise<Frame[]> {
  const r = frameReader(body);
  try {
    return await r.until(stop);
  } finally {
    await r.close();
  }
}

const named = (frames: Frame[]) => frames.filter((f) => f.event && f.event !== "ready");
const ready = (frames: Frame[]) => frames.some((f) => f.event === "ready");

function open(headers: Record<string, string>, signal?: AbortSignal) {
  return GET(new Request(`${BASE}/api/v1/events`, { headers, signal }), { params: Promise.resolve({}) });
}

beforeAll(async () => {
  env = await setupIntegration("person-events");
  events = await import("./index");
  stream = await import("./person-stream");
  GET = (await import("@/app/api/v1/events/route")).GET;
  const { createUser, sessionCookieName } = await import("../auth");
  me = (await createUser({ email: "events-me@example.test", name: "Me", password: null })).id;
  other = (await createUser({ email: "events-other@example.test", name: "Other", password: null })).id;
  myCookie = `${sessionCookieName()}=${await sessionToken(me, SECRET)}`;
}, 120_000);

afterAll(async () => {
  await events?.closeEvents();
  await env?.teardown();
});

describe("GET /api/v1/events", () => {
  let firstId = "";
  let secondId = "";

  it("sends the person's own events, never someone else's", async () => {
    const abort = new AbortController();
    const res = await open({ cookie: myCookie, accept: "text/event-stream" }, abort.signal);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = frameReader(res.body!);
    // Wait until the stream is listening, then make events for both people.
    await reader.until(ready);
    await events.notify(events.channels.userSteps(other), events.channels.userScans(other));
    await events.notify(events.channels.userSteps(me));
    await events.notify(events.channels.userInstalls(me));
    const frames = await reader.until((f) => named(f).length >= 2);
    await reader.close();
    abort.abort();
    const got = named(frames);
    expect(got.map((f) => f.event)).toEqual(["steps", "installs"]);
    expect(got.map((f) => JSON.parse(f.data ?? "{}"))).toEqual([{ type: "steps" }, { type: "installs" }]);
    firstId = got[0]!.id!;
    secondId = got[1]!.id!;
    expect(firstId).toMatch(/^\d+-\d+$/);
  });

  it("replays what a reconnect missed, after its Last-Event-ID", async () => {
    const abort = new AbortController();
    const res = await open({ cookie: myCookie, accept: "text/event-stream", "last-event-id": firstId }, abort.signal);
    const frames = await readFrames(res.body!, (f) => named(f).length >= 1);
    abort.abort();
    expect(named(frames)).toEqual([{ id: secondId, event: "installs", data: '{"type":"installs"}' }]);
  });

  it("tells a reconnect whose place in the log cannot be trusted to reload", async () => {
    const abort = new AbortController();
    const res = await open(
      { cookie: myCookie, accept: "text/event-stream", "last-event-id": "99999999999999-0" },
      abort.signal,
    );
    const frames = await readFrames(res.body!, ready);
    abort.abort();
    expect(named(frames)).toEqual([{ id: secondId, event: "reset", data: '{"type":"reset"}' }]);
  });

  it("sends heartbeats while nothing happens", async () => {
    const abort = new AbortController();
    const body = stream.personEventStream(other, { lastEventId: null, signal: abort.signal, heartbeatMs: 50 });
    const frames = await readFrames(body, (f) => f.some((x) => x.comment === "heartbeat"));
    abort.abort();
    expect(frames.some((f) => f.comment === "heartbeat")).toBe(true);
  });

  it("refuses anyone not signed in, and a request that does not ask for an event stream", async () => {
    const anonymous = await open({ accept: "text/event-stream" });
    expect(anonymous.status).toBe(401);
    const plain = await open({ cookie: myCookie, accept: "application/json" });
    expect(plain.status).toBe(406);
    expect(((await plain.json()) as { error: { code: string } }).error.code).toBe("request.not_acceptable");
  });
});
