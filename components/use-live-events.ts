"use client";
// The browser's end of GET /api/v1/events: calls `onChange` when one of the person's events of the
// given types arrives, when the stream (re)connects (something may have changed meanwhile) and on
// `reset`. The browser's EventSource reconnects by itself and sends Last-Event-ID. Where the stream
// cannot be had, it falls back to a slow poll.
import { useEffect, useRef } from "react";

export type LiveEventType = "steps" | "installs" | "scans";

const FALLBACK_POLL_MS = 10_000;
const COALESCE_MS = 150;

export function useLiveEvents(types: readonly LiveEventType[], onChange: () => void) {
  const callback = useRef(onChange);
  useEffect(() => {
    callback.current = onChange;
  }, [onChange]);
  const key = types.join(",");

  useEffect(() => {
    let timer: number | undefined;
    let poll: number | undefined;
    const fire = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => callback.current(), COALESCE_MS);
    };
    const startPolling = () => {
      poll ??= window.setInterval(() => callback.current(), FALLBACK_POLL_MS);
    };
    if (typeof EventSource === "undefined") {
      startPolling();
      return () => window.clearInterval(poll);
    }
    const source = new EventSource("/api/v1/events");
    // Listening (again): whatever happened since the page was rendered, or while away, shows now.
    source.addEventListener("ready", () => {
      fire();
      window.clearInterval(poll);
      poll = undefined;
    });
    for (const type of [...key.split(","), "reset"]) source.addEventListener(type, fire);
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED) startPolling();
    });
    return () => {
      source.close();
      window.clearTimeout(timer);
      window.clearInterval(poll);
    };
  }, [key]);
}
