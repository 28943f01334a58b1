// The routes one web process of the registry serves to agents, Links, publishers and probes, as
// a table for stream-server.ts: the exact handlers of app/, without a Next build.
import { mcpRoutes, type RouteTable } from "./stream-server";

export async function appRoutes(): Promise<RouteTable> {
  const r = (p: string) => import(p);
  const steps = await r("../../app/api/v1/steps/route");
  const step = await r("../../app/api/v1/steps/[id]/route");
  const skills = await r("../../app/api/v1/skills/route");
  const live = await r("../../app/api/health/live/route");
  const ready = await r("../../app/api/health/ready/route");
  return [
    ...(await mcpRoutes()),
    { method: "POST", pattern: "/api/v1/steps", handler: steps.POST },
    { method: "GET", pattern: "/api/v1/steps/[id]", handler: step.GET },
    { method: "POST", pattern: "/api/v1/skills", handler: skills.POST },
    { method: "GET", pattern: "/api/health/live", handler: live.GET },
    { method: "GET", pattern: "/api/health/ready", handler: ready.GET },
  ];
}
