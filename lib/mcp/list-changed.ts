// While a client holds its standalone SSE stream (GET /api/mcp), tell it when its lists change:
// woken at once when the person installs, upgrades, enables, disables or uninstalls a skill (from
// any web process, through lib/events), and re-checked every half minute for what changes without
// an install (a scan finishing, a version retired). Only lists whose contents changed are announced.
import "server-only";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { AgentPrincipal } from "../agents";
import { channels, waitFor } from "../events";
import { log } from "../log";
import { fingerprints, loadCatalog } from "./catalog";

const RECHECK_MS = 30_000;

export async function watchListChanges(server: Server, agent: AgentPrincipal, signal: AbortSignal): Promise<void> {
  let last = fingerprints(await loadCatalog(agent));
  while (!signal.aborted) {
    await waitFor([channels.userInstalls(agent.userId)], RECHECK_MS, signal);
    if (signal.aborted) return;
    try {
      const now = fingerprints(await loadCatalog(agent));
      if (now.tools !== last.tools) await server.sendToolListChanged();
      if (now.prompts !== last.prompts) await server.sendPromptListChanged();
      if (now.resources !== last.resources) await server.sendResourceListChanged();
      last = now;
    } catch (err) {
      if (signal.aborted) return;
      log.warn("mcp: list_changed check failed; retrying", { agentId: agent.agentId, err });
    }
  }
}
