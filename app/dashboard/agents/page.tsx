import Link from "next/link";
import { listAgents } from "@/lib/agents";
import { requireUser } from "@/lib/auth";
import { agentSpentToday } from "@/lib/billing/allowance";
import { config } from "@/lib/config/env.mjs";
import { agentConnections } from "@/lib/oauth";
import { AgentsClient, type AgentRow } from "./page-client";
import { DashboardTitle } from "@/components/dashboard-title";

export const metadata = { title: "Agents" };
export const dynamic = "force-dynamic";

export default async function AgentsPage() {
  const user = await requireUser("/dashboard/agents");
  const agents = await listAgents(user.userId);
  const connections = await agentConnections(user.userId);
  const rows: AgentRow[] = await Promise.all(
    agents.map(async (a) => ({
      id: a.id,
      name: a.name,
      tokenPrefix: a.tokenPrefix,
      createdAt: a.createdAt.toISOString(),
      revokedAt: a.revokedAt?.toISOString() ?? null,
      dailyLimitMicros: a.allowance?.dailyLimitMicros.toString() ?? null,
      spentTodayMicros: (await agentSpentToday(a.id)).toString(),
      connections: connections
        .filter((c) => c.agentId === a.id)
        .map((c) => ({ clientName: c.clientName, since: c.since.toISOString() })),
    })),
  );
  return (
    <>
      <DashboardTitle title="Agents" />
      <p>
        An agent calls your installed skills&apos; tools with its own token (<code>Authorization: Bearer ova_…</code>).
        Each run it asks for waits on <Link href="/dashboard/approvals">your approval</Link> unless you chose “always
        allow”. Its allowance is what it may spend per day (UTC) when it acts on its own.
      </p>
      <p>
        Agents that speak MCP connect to <code>{config().APP_URL.replace(/\/+$/, "")}/api/mcp</code>: by URL alone (they
        sign in and you choose the agent), or with the agent&apos;s token. Each agent below has the blocks to paste.
      </p>
      <AgentsClient agents={rows} appUrl={config().APP_URL} />
    </>
  );
}
