import Link from "next/link";
import { redirect } from "next/navigation";
import { listAgents } from "@/lib/agents";
import { getSession } from "@/lib/auth";
import {
  authorizationFields,
  consentToken,
  parseAuthorizationRequest,
  stashAuthorization,
  takeStashedAuthorization,
} from "@/lib/oauth";
import { ConsentForm } from "./consent-form";
import styles from "./consent.module.css";

export const metadata = { title: "Connect an app to your agent" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

function toQuery(params: Record<string, string | string[] | undefined>): URLSearchParams {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) query.append(k, one);
  return query;
}

function Problem({ message }: { message: string }) {
  return (
    <section className="panel narrow" aria-labelledby="consent-title">
      <h1 id="consent-title">This sign-in link cannot be used</h1>
      <p role="alert">{message}</p>
      <p>
        Nothing was shared with the app. Go back to it and connect again, or go to <Link href="/dashboard/agents">your agents</Link>.
      </p>
    </section>
  );
}

/** OAuth consent (MCP authorization): the signed-in person picks or creates the agent an app acts as. */
export default async function AuthorizePage({ searchParams }: { searchParams: SearchParams }) {
  let query = toQuery(await searchParams);
  const pending = query.get("pending");
  if (pending) {
    const stored = await takeStashedAuthorization(pending);
    if (!stored) return <Problem message="This sign-in took too long and expired." />;
    query = new URLSearchParams(stored);
  }
  const user = await getSession();
  if (!user) {
    // Sign-in returns to a path of at most 512 characters: a long request waits in Redis instead.
    const path = `/oauth/authorize?${query}`;
    const next = path.length > 480 ? `/oauth/authorize?pending=${await stashAuthorization(query.toString())}` : path;
    redirect(`/signin?next=${encodeURIComponent(next)}`);
  }
  const parsed = await parseAuthorizationRequest(query);
  if (parsed.kind === "fatal") return <Problem message={parsed.message} />;
  if (parsed.kind === "redirect") redirect(parsed.url);
  const r = parsed.request;
  const agents = (await listAgents(user.userId)).filter((a) => !a.revokedAt);
  const returnsTo = new URL(r.redirectUri);
  const place = returnsTo.protocol === "http:" || returnsTo.protocol === "https:" ? returnsTo.host : `${returnsTo.protocol}//`;

  return (
    <section className={`panel ${styles.consent}`} aria-labelledby="consent-title">
      <h1 id="consent-title">Let an app act as one of your agents?</h1>
      <p className={styles.app}>
        An app that calls itself <strong>“{r.client.name}”</strong> wants to connect to OpenVibe Skills as one of your agents. OpenVibe
        does not check an app&apos;s name: allow it only if you just started this from that app. It goes back to{" "}
        <code className="mono">{place}</code>.
      </p>
      <h2 className={styles.subhead}>As that agent, the app can</h2>
      <ul className={styles.can}>
        <li>see the tools of the skills installed in the agent&apos;s project, and read your prompt skills;</li>
        <li>ask to run those tools: each run waits for your approval on OpenVibe unless you chose “always allow”;</li>
        <li>spend up to the agent&apos;s daily allowance on runs you always allow.</li>
      </ul>
      <p className="hint">Revoke the agent on the Agents page and the app stops at once.</p>

      <ConsentForm>
        {Object.entries(authorizationFields(r)).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="consent_token" value={consentToken(user.userId, r)} />
        <fieldset className={styles.choices}>
          <legend>Act as</legend>
          {agents.map((a, i) => (
            <div key={a.id} className={styles.choice}>
              <input type="radio" id={`agent-${a.id}`} name="agent" value={a.id} defaultChecked={i === 0} />
              <label htmlFor={`agent-${a.id}`}>
                {a.name} <span className="mono muted">ova_{a.tokenPrefix}…</span>
              </label>
            </div>
          ))}
          <div className={styles.choice}>
            <input type="radio" id="agent-new" name="agent" value="new" defaultChecked={agents.length === 0} />
            <label htmlFor="agent-new">A new agent named</label>
            <label htmlFor="new-agent-name" className="visually-hidden">
              Name of the new agent
            </label>
            <input id="new-agent-name" name="new_agent_name" type="text" maxLength={64} defaultValue={r.client.name.slice(0, 64)} />
          </div>
        </fieldset>
        <div className="actions">
          <button type="submit" name="decision" value="allow" className="button button-primary">
            Allow
          </button>
          <button type="submit" name="decision" value="deny" className="button">
            Deny
          </button>
        </div>
      </ConsentForm>
    </section>
  );
}
