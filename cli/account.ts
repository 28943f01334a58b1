// `openvibe install SKILL[@VERSION]`, `openvibe agents create NAME` and `openvibe runs`: a person's
// account from a terminal, with a personal API token that has the scope each needs.
import type { Out } from "./publish";

export type AccountOptions = { server: string; token: string };

type ApiError = { error?: { code?: string; message?: string } };

async function call(o: AccountOptions, path: string, init: { method?: string; body?: unknown } = {}) {
  const res = await fetch(new URL(path, o.server), {
    method: init.method ?? "GET",
    headers: {
      authorization: `Bearer ${o.token}`,
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const payload = (await res.json().catch(() => ({}))) as unknown;
  return { ok: res.ok, status: res.status, payload };
}

function failure(out: Out, status: number, payload: unknown): number {
  const error = (payload as ApiError).error;
  out.error(`openvibe: ${error?.code ?? `HTTP ${status}`}: ${error?.message ?? "the registry refused"}`);
  return 1;
}

/** `SKILL` alone installs its latest version. */
export async function installCommand(o: AccountOptions, skill: string, out: Out): Promise<number> {
  const at = skill.lastIndexOf("@");
  const slug = at > 0 ? skill.slice(0, at) : skill;
  let version = at > 0 ? skill.slice(at + 1) : "";
  if (!version) {
    const found = await call(o, `/api/v1/skills/${encodeURIComponent(slug)}`);
    if (!found.ok) return failure(out, found.status, found.payload);
    const latest = (found.payload as { latest?: string | null }).latest;
    if (!latest) {
      out.error(`openvibe: ${slug} has no live version to install.`);
      return 1;
    }
    version = latest;
  }
  const r = await call(o, "/api/v1/installs", { method: "POST", body: { slug, version } });
  if (!r.ok) return failure(out, r.status, r.payload);
  const outcome = (r.payload as { outcome?: string }).outcome ?? "installed";
  out.line(`✓ ${slug}@${version}: ${outcome}`);
  return 0;
}

/** The agent's token is printed once, as the registry returns it once. */
export async function agentsCreateCommand(o: AccountOptions, name: string, out: Out): Promise<number> {
  const r = await call(o, "/api/v1/agents", { method: "POST", body: { name } });
  if (!r.ok) return failure(out, r.status, r.payload);
  const { agent, token } = r.payload as { agent: { id: string; name: string }; token: string };
  out.line(`✓ agent ${agent.name} (${agent.id})`);
  out.line(`  token (shown once): ${token}`);
  return 0;
}

type RunLine = { id: string; skill: string; version: string; tool: string; status: string; created_at: string };

export async function runsCommand(o: AccountOptions, out: Out): Promise<number> {
  const r = await call(o, "/api/v1/runs");
  if (!r.ok) return failure(out, r.status, r.payload);
  const { runs } = r.payload as { runs: RunLine[] };
  if (!runs.length) out.line("No runs yet.");
  for (const run of runs) {
    out.line(`${run.created_at}  ${run.status.padEnd(10)} ${run.skill}@${run.version} ${run.tool}  ${run.id}`);
  }
  return 0;
}
