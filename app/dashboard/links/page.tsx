import { requireUser } from "@/lib/auth";
import { listLinks } from "@/lib/links";
import { projectPoolChoices } from "@/lib/runs";
import { LinksClient, type LinkRow } from "./page-client";
import { DashboardTitle } from "@/components/dashboard-title";

export const metadata = { title: "Links" };
export const dynamic = "force-dynamic";

export default async function LinksPage() {
  const user = await requireUser("/dashboard/links");
  const links: LinkRow[] = (await listLinks(user.userId)).map((l) => ({
    id: l.id,
    name: l.name,
    online: l.online,
    lastSeenAt: l.lastSeenAt?.toISOString() ?? null,
    runner: l.runner,
    runnerOffRemotely: l.runnerOffRemotely,
    pool: l.pool,
    poolApproved: l.poolApproved,
    jobsRun: l.jobsRun,
    revokedAt: l.revokedAt?.toISOString() ?? null,
    createdAt: l.createdAt.toISOString(),
  }));
  return (
    <>
      <DashboardTitle title="Links" />
      <p>
        A Link is a machine of yours that runs skills&apos; code in a sandbox. Runs go to your own Links first (they
        cost less), then to OpenVibe&apos;s pool, if you allow it below. Your Links run only your jobs. A Link signs
        every request with a key that never leaves it.
      </p>
      <LinksClient links={links} projects={await projectPoolChoices(user.userId)} />
    </>
  );
}
