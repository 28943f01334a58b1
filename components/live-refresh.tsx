"use client";
// Re-renders the server page it sits in when one of the person's events of the given types
// arrives (a run moved on, a scan finished): the page reads the new state through its own loader.
import { useRouter } from "next/navigation";
import { useCallback } from "react";
import { useLiveEvents, type LiveEventType } from "./use-live-events";

export function LiveRefresh({ events }: { events: LiveEventType[] }) {
  const router = useRouter();
  const refresh = useCallback(() => router.refresh(), [router]);
  useLiveEvents(events, refresh);
  return null;
}
