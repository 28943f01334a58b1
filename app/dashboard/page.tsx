import Link from "next/link";
import { getDefaultProject, requireUser } from "@/lib/auth";
import { db } from "@/lib/db";

const NAV = [
  ["/dashboard/approvals", "Approvals"],
  ["/dashboard/runs", "Runs"],
  ["/dashboard/agents", "Agents"],
  ["/dashboard/links", "Links"],
  ["/dashboard/balance", "Balance"],
] as const;

export const metadata = { title: "Dashboard" };

export default async function DashboardPage() {
  const user = await requireUser("/dashboard");
  const [project, activeTokens] = await Promise.all([
    getDefaultProject(user.userId),
    db.apiToken.count({ where: { userId: user.userId, revokedAt: null } }),
  ]);
  return (
    <>
      <h1>Hello, {user.name}</h1>
      <p className="muted">
        Signed in as {user.email} · <span className="mono">@{user.handle}</span>
      </p>
      <div className="grid">
        <section className="panel" aria-labelledby="project-title">
          <h2 id="project-title">Your project</h2>
          {project ? (
            <p>
              <strong>{project.name}</strong> <span className="muted mono">({project.slug})</span> — where your
              installs, agents and runs live.
            </p>
          ) : (
            <p>You have no default project yet.</p>
          )}
        </section>
        <section className="panel" aria-labelledby="tokens-title">
          <h2 id="tokens-title">API tokens</h2>
          <p>
            {activeTokens === 0 ? "No active tokens." : `${activeTokens} active token${activeTokens === 1 ? "" : "s"}.`}{" "}
            Tokens let the <span className="mono">openvibe</span> CLI and your scripts act as you.
          </p>
          <p>
            <Link href="/dashboard/tokens" className="button">
              Manage tokens
            </Link>
          </p>
        </section>
      </div>
      <nav aria-labelledby="runs-nav-title" className="panel" style={{ marginTop: "1.25rem" }}>
        <h2 id="runs-nav-title">Agents, runs and money</h2>
        <ul className="actions" style={{ listStyle: "none", padding: 0, margin: 0 }}>
          {NAV.map(([href, name]) => (
            <li key={href}>
              <Link href={href} className="button">
                {name}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </>
  );
}
