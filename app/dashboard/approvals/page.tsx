import { requireUser } from "@/lib/auth";
import { approvalsView } from "@/lib/steps/approvals-view";
import { ApprovalsClient, type ApprovalsData } from "./page-client";
import { DashboardTitle } from "@/components/dashboard-title";

export const metadata = { title: "Approvals" };
export const dynamic = "force-dynamic";

/** The same JSON the approvals API answers, so the first render and every refresh look alike. */
const asJson = (data: unknown): ApprovalsData =>
  JSON.parse(JSON.stringify(data, (_k, v) => (typeof v === "bigint" ? v.toString() : v))) as ApprovalsData;

export default async function ApprovalsPage() {
  const user = await requireUser("/dashboard/approvals");
  const data = await approvalsView(user.userId);
  return (
    <>
      <DashboardTitle title="Approvals" />
      <p>
        When one of your agents wants to run a skill&apos;s code, it asks here first. The code runs in a sandbox on one
        of your Links (or a pool machine), never on our servers. This page updates by itself.
      </p>
      <ApprovalsClient initial={asJson(data)} />
    </>
  );
}
