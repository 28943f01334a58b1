import Link from "next/link";
import { requireUser } from "@/lib/auth";
import { listSteps } from "@/lib/steps";
import { ApprovalsClient, type StepView } from "./page-client";

export const metadata = { title: "Approvals" };
export const dynamic = "force-dynamic";

/** The same JSON the steps API answers, so the first render and every poll look alike. */
const asJson = (steps: unknown): StepView[] =>
  JSON.parse(JSON.stringify(steps, (_k, v) => (typeof v === "bigint" ? v.toString() : v))) as StepView[];

export default async function ApprovalsPage() {
  const user = await requireUser("/dashboard/approvals");
  const [pending, recent] = await Promise.all([
    listSteps(user.userId, { pending: true }),
    listSteps(user.userId, { limit: 20 }),
  ]);
  return (
    <>
      <p className="breadcrumb">
        <Link href="/dashboard">Dashboard</Link> / Approvals
      </p>
      <h1>Approvals</h1>
      <p>
        When one of your agents wants to run a skill&apos;s code, it asks here first. The code runs in a sandbox on one
        of your Links (or a pool machine), never on our servers. This page updates by itself.
      </p>
      <ApprovalsClient initialPending={asJson(pending)} initialRecent={asJson(recent)} />
    </>
  );
}
