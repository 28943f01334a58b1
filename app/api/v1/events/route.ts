import { scopedPrincipal } from "@/lib/auth";
import { AppError } from "@/lib/errors";
import { personEventStream } from "@/lib/events/person-stream";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** The signed-in person's live events as Server-Sent Events (`Last-Event-ID` replays what was missed). */
export const GET = route({
  auth: scopedPrincipal("runs:read"),
  handler: async ({ req, principal }) => {
    if (!/(^|[\s,])text\/event-stream($|[\s,;])/.test(req.headers.get("accept") ?? "")) {
      throw new AppError("request.not_acceptable", "This is an event stream: send `Accept: text/event-stream`.");
    }
    const stream = personEventStream(principal.userId, {
      lastEventId: req.headers.get("last-event-id")?.slice(0, 64) ?? null,
      signal: req.signal,
    });
    return new Response(stream, {
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store, no-transform",
        connection: "keep-alive",
        "x-accel-buffering": "no",
      },
    });
  },
});
