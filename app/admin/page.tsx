import { notFound } from "next/navigation";
import { isOperator } from "@/lib/admin";
import { requireUser } from "@/lib/auth";
import { listPoolLinks } from "@/lib/links";
import { AdminPoolClient, type PoolRow } from "./page-client";

export const metadata = { title: "Admin" };
export const dynamic = "force-dynamic";

/** Operators only: to anyone else this page does not exist. */
export default async function AdminPage() {
  const user = await requireUser("/admin");
  if (!(await isOperator(user.userId))) notFound();
  const rows: PoolRow[] = (await listPoolLinks()).map((l) => ({
    id: l.id,
    name: l.name,
    owner: l.owner,
    online: l.online,
    runner: l.runner,
    offered: l.offered,
    approvedAt: l.approved_at?.toISOString() ?? null,
    jobsRun: l.jobs_run,
  }));
  return (
    <>
      <h1>Admin: OpenVibe pool</h1>
      <p>
        A machine runs other people&apos;s jobs only once you approve it here (or with{" "}
        <code>npm run admin -- pool approve LINK_ID</code>). It must also run <code>openvibe-link run --pool</code>.
        Approve only machines OpenVibe operates: their jobs carry people&apos;s inputs and code, and what they report is
        recorded as fact.
      </p>
      <AdminPoolClient initial={rows} />
    </>
  );
}
