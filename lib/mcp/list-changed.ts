// While a client holds its standalone SSE stream (GET /api/mcp), tell it when its lists change:
// woken at once when the person installs, upgrades, enables, disables or uninstalls a skill (from
// any web process, through lib/events), and re-checked every half minute for what changes without
// an install (a scan finishing, a version retired): sessions of one person's project share those
// looks. Only lists whose contents changed are announced.
import "server-only";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { AgentPrincipal } from "../agents";
import { channels, waitFor } from "../events";
import { log } from "../log";
import { fingerprints, loadCatalog, type Fingerprints } from "./catalog";

const RECHECK_MS = 30_000;
/** How long one read of a person's project's lists serves every session of it that checks by time. */
const SHARED_FOR_MS = 5_000;

/** Fingerprints read for a person's project lately, shared by its sessions (100 agents, one read). */
const recent = new Map<string, { at: number; fingerprints: Promise<Fingerprints> }>();

function sharedFingerprints(agent: AgentPrincipal): Promise<Fingerprints> {
  const key = `${agent.userId}\n${agent.projectId}`;
  const now = Date.now();
  const hit = recent.get(key);
  if (hit && now - hit.at < SHARED_FOR_MS) return hit.fingerprints;
  for (const [k, v] of recent) if (now - v.at >= SHARED_FOR_MS) recent.delete(k);
  const read = loadCatalog(agent).then(fingerprints);
  read.catch(() => recent.delete(key));
  recent.set(key, { at: now, fingerprints: read });
  return read;
}

export async function watchListChanges(server: Server, agent: AgentPrincipal, signal: AbortSignal): Promise<void> {
  let last = await sharedFingerprints(agent);
  while (!signal.aborted) {
    // Spread over ±25 %, so that sessions opened together do not all look at the same moment.
    const woken = await waitFor([channels.userInstalls(agent.userId)], RECHECK_MS * (0.75 + Math.random() / 2), signal);
    if (signal.aborted) return;
    try {
      // A wake-up follows a change just committed: read afresh. A look by time may share a read.
      const now = woken ? fingerprints(await loadCatalog(agent)) : await sharedFingerprints(agent);
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
