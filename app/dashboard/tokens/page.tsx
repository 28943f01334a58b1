import { listApiTokens, requireUser } from "@/lib/auth";
import { TokensClient, type TokenRow } from "./page-client";
import { DashboardTitle } from "@/components/dashboard-title";

export const metadata = { title: "API tokens" };

export default async function TokensPage() {
  const user = await requireUser("/dashboard/tokens");
  const tokens: TokenRow[] = (await listApiTokens(user.userId)).map((t) => ({
    id: t.id,
    name: t.name,
    prefix: t.prefix,
    scopes: t.scopes,
    createdAt: t.createdAt.toISOString(),
    expiresAt: t.expiresAt?.toISOString() ?? null,
    lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
    revokedAt: t.revokedAt?.toISOString() ?? null,
  }));
  return (
    <>
      <DashboardTitle title="API tokens" />
      <p>
        A token lets the <span className="mono">openvibe</span> CLI or your own scripts call the API as you. Send it as{" "}
        <code>Authorization: Bearer ovp_…</code>. Treat it like a password; revoke it the moment you stop using it.
      </p>
      <TokensClient initialTokens={tokens} />
    </>
  );
}
