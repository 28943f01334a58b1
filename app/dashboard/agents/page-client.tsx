"use client";

import { AskButton, ConfirmRow } from "@/components/confirm-row";
import { CardList } from "@/components/card-list";
import { LiveNotice } from "@/components/live-notice";
import { SecretShownOnce } from "@/components/secret-row";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { readApiError } from "@/components/api-error";
import { Field } from "@/components/field";
import { FormError } from "@/components/form-error";
import { parseUnits, unitsText } from "../balance/units";
import styles from "./agents.module.css";
import { McpSnippets } from "./mcp-snippets";

export type AgentRow = {
  id: string;
  name: string;
  tokenPrefix: string;
  createdAt: string;
  revokedAt: string | null;
  dailyLimitMicros: string | null;
  spentTodayMicros: string;
  /** Apps acting as this agent through OAuth (MCP sign-in). */
  connections: { clientName: string; since: string }[];
};

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const when = (iso: string) => `${dateFormat.format(new Date(iso))} UTC`;
const OFFLINE = {
  message: "We could not reach the server. Check your connection and try again.",
  details: [] as string[],
};

export function AgentsClient({ agents, appUrl }: { agents: AgentRow[]; appUrl: string }) {
  const router = useRouter();
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [error, setError] = useState<{ message: string; details: string[] } | null>(null);
  const [pending, setPending] = useState(false);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  // After a revoke its buttons are gone: focus moves to the notice that says what happened.
  const noticeRef = useRef<HTMLParagraphElement>(null);

  async function call(input: string, init: RequestInit): Promise<Response | null> {
    setPending(true);
    setError(null);
    try {
      const res = await fetch(input, init);
      if (!res.ok) {
        const e = await readApiError(res);
        setError({ message: e.message, details: e.details });
        return null;
      }
      return res;
    } catch {
      setError(OFFLINE);
      return null;
    } finally {
      setPending(false);
    }
  }

  async function create(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get("name") ?? "");
    const res = await call("/api/v1/agents", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name }),
    });
    if (!res) return;
    const body = (await res.json()) as { agent: { name: string }; token: string };
    setCreated({ name: body.agent.name, token: body.token });
    form.reset();
    router.refresh();
  }

  async function revoke(agent: AgentRow) {
    const res = await call(`/api/v1/agents/${encodeURIComponent(agent.id)}`, { method: "DELETE" });
    if (!res) return;
    setConfirming(null);
    setNotice(`Revoked ${agent.name}. Its token stopped working.`);
    noticeRef.current?.focus();
    router.refresh();
  }

  async function saveAllowance(event: React.FormEvent<HTMLFormElement>, agent: AgentRow) {
    event.preventDefault();
    const text = String(new FormData(event.currentTarget).get("allowance") ?? "");
    const micros = parseUnits(text);
    if (micros === null) {
      setError({ message: `“${text}” is not an amount: write it like 2 or 0.50 (up to six decimals).`, details: [] });
      return;
    }
    const res = await call(`/api/v1/agents/${encodeURIComponent(agent.id)}/allowance`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ daily_limit_micros: micros.toString() }),
    });
    if (!res) return;
    setEditing(null);
    setNotice(`${agent.name} may now spend ${unitsText(micros)} per day on its own.`);
    router.refresh();
  }

  return (
    <>
      <section className="panel" aria-labelledby="new-agent-title">
        <h2 id="new-agent-title">Create an agent</h2>
        <form className="form form-inline" onSubmit={create}>
          <Field id="agent-name" label="Agent name">
            {(control) => (
              <input
                {...control}
                name="name"
                type="text"
                required
                maxLength={64}
                placeholder="e.g. research assistant"
              />
            )}
          </Field>
          <button type="submit" className="button button-primary" disabled={pending}>
            Create agent
          </button>
        </form>
        {created ? (
          <SecretShownOnce
            intro={
              <>
                <strong>Copy the token of “{created.name}” now.</strong> This is the only time it is shown: we keep only
                a fingerprint of it. Give it to your agent only; anyone holding it can ask to run your skills.
              </>
            }
            id="agent-token"
            label="New agent token"
            value={created.token}
            onSaved={() => setCreated(null)}
          >
            <details className={styles.connect}>
              <summary>Connect an MCP client as “{created.name}”</summary>
              <McpSnippets idPrefix="new-agent" appUrl={appUrl} token={created.token} />
            </details>
          </SecretShownOnce>
        ) : null}
      </section>

      <FormError message={error?.message ?? null} details={error?.details} />
      <LiveNotice ref={noticeRef} notice={notice} />

      <section aria-labelledby="agent-list-title">
        <h2 id="agent-list-title">Your agents</h2>
        <CardList rows={agents.length} empty="You have no agents yet.">
          {agents.map((a) => (
            <li
              key={a.id}
              className={`card ${styles.agent}${a.revokedAt ? ` ${styles.revoked}` : ""}`}
              data-agent-id={a.id}
            >
              <div className={styles.head}>
                <strong>{a.name}</strong> <span className="mono muted">ova_{a.tokenPrefix}…</span>
                {a.revokedAt ? <span className="badge badge-danger">revoked</span> : null}
              </div>
              <p className={styles.meta}>
                Created {when(a.createdAt)}
                {a.revokedAt ? ` · revoked ${when(a.revokedAt)}` : ""}
              </p>
              <p className={styles.money}>
                Spent today: <strong>{unitsText(a.spentTodayMicros)}</strong> of{" "}
                <strong>{a.dailyLimitMicros === null ? "no allowance set" : unitsText(a.dailyLimitMicros)}</strong> per
                day
              </p>
              {a.connections.length ? (
                <p className={styles.connections}>
                  Connected apps (OAuth):{" "}
                  {a.connections.map((c) => `${c.clientName} since ${when(c.since)}`).join(", ")}
                </p>
              ) : null}
              {a.revokedAt ? null : (
                <details className={styles.connect}>
                  <summary>Connect an MCP client as {a.name}</summary>
                  <McpSnippets idPrefix={`agent-${a.id}`} appUrl={appUrl} />
                </details>
              )}
              {a.revokedAt ? null : (
                <div className={styles.actions}>
                  {editing === a.id ? (
                    <form className={styles.allowanceForm} onSubmit={(e) => saveAllowance(e, a)}>
                      <Field id={`allowance-${a.id}`} label={`Allowance per day for ${a.name}`}>
                        {(control) => (
                          <input
                            {...control}
                            name="allowance"
                            type="text"
                            inputMode="decimal"
                            required
                            autoFocus
                            defaultValue={a.dailyLimitMicros === null ? "" : unitsText(a.dailyLimitMicros)}
                          />
                        )}
                      </Field>
                      <button type="submit" className="button button-primary" disabled={pending}>
                        Save
                      </button>
                      <button type="button" className="button button-quiet" onClick={() => setEditing(null)}>
                        Cancel
                      </button>
                    </form>
                  ) : (
                    <button
                      type="button"
                      className="button"
                      onClick={() => setEditing(a.id)}
                      aria-label={`Change allowance of ${a.name}`}
                    >
                      Change allowance
                    </button>
                  )}
                  {confirming === a.id ? (
                    <ConfirmRow
                      className={styles.confirm}
                      label={`Confirm revoking ${a.name}`}
                      question={`Revoke “${a.name}”? Its token stops working at once.`}
                      confirm="Yes, revoke"
                      pending={pending}
                      onConfirm={() => revoke(a)}
                      onCancel={() => setConfirming(null)}
                    />
                  ) : (
                    <AskButton action="Revoke" name={a.name} onClick={() => setConfirming(a.id)} />
                  )}
                </div>
              )}
            </li>
          ))}
        </CardList>
      </section>
    </>
  );
}
