"use client";

import { AskButton, ConfirmRow } from "@/components/confirm-row";
import { CardList } from "@/components/card-list";
import { SecretShownOnce } from "@/components/secret-row";
import { useState } from "react";
import { readApiError } from "@/components/api-error";
import { Field } from "@/components/field";
import { FormError } from "@/components/form-error";
import { API_TOKEN_SCOPES, LEGACY_SCOPES, SCOPE_DESCRIPTIONS, type ApiTokenScope } from "@/lib/auth/scopes";

const EXPIRY_CHOICES = [
  { value: "7", label: "7 days" },
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "366", label: "1 year" },
  { value: "never", label: "Never" },
] as const;

export type TokenRow = {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiTokenScope[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

// UTC and a fixed locale so the server render and the browser agree (no hydration mismatch).
const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const when = (iso: string | null) => (iso ? `${dateFormat.format(new Date(iso))} UTC` : "never");

export function TokensClient({ initialTokens }: { initialTokens: TokenRow[] }) {
  const [tokens, setTokens] = useState(initialTokens);
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const [error, setError] = useState<{ message: string; details: string[] } | null>(null);
  const [pending, setPending] = useState(false);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [now] = useState(() => Date.now());

  async function create(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formEl = event.currentTarget;
    const form = new FormData(formEl);
    const name = String(form.get("name") ?? "");
    const scopes = form.getAll("scope").map(String);
    const expiry = String(form.get("expiry") ?? "never");
    if (!scopes.length) {
      setError({ message: "Pick at least one scope: a token can do only what its scopes name.", details: [] });
      return;
    }
    setPending(true);
    setError(null);
    try {
      const res = await fetch("/api/v1/tokens", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name, scopes, expires_in_days: expiry === "never" ? null : Number(expiry) }),
      });
      if (res.status !== 201) {
        const e = await readApiError(res);
        setError({ message: e.message, details: e.details });
        return;
      }
      const body = (await res.json()) as { token: TokenRow; secret: string };
      setCreated({ name: body.token.name, secret: body.secret });
      setTokens((list) => [body.token, ...list]);
      formEl.reset();
    } catch {
      setError({ message: "We could not reach the server. Check your connection and try again.", details: [] });
    } finally {
      setPending(false);
    }
  }

  async function revoke(id: string) {
    setPending(true);
    setError(null);
    try {
      const res = await fetch(`/api/v1/tokens/${encodeURIComponent(id)}`, { method: "DELETE" });
      if (!res.ok) {
        const e = await readApiError(res);
        setError({ message: e.message, details: e.details });
        return;
      }
      const body = (await res.json()) as { token: TokenRow };
      setTokens((list) => list.map((t) => (t.id === id ? body.token : t)));
      setConfirming(null);
    } catch {
      setError({ message: "We could not reach the server. Check your connection and try again.", details: [] });
    } finally {
      setPending(false);
    }
  }

  return (
    <>
      <section className="panel" aria-labelledby="new-token-title">
        <h2 id="new-token-title">Create a token</h2>
        <form className="form" onSubmit={create}>
          <Field id="token-name" label="Name" hint="Say where it will be used, so you know which one to revoke later.">
            {(control) => (
              <input {...control} name="name" type="text" required maxLength={64} placeholder="e.g. laptop CLI" />
            )}
          </Field>
          <fieldset className="field token-scopes">
            <legend>Scopes</legend>
            {API_TOKEN_SCOPES.map((scope) => (
              <label key={scope} className="checkbox">
                <input type="checkbox" name="scope" value={scope} defaultChecked={LEGACY_SCOPES.includes(scope)} />{" "}
                <span className="mono">{scope}</span> — {SCOPE_DESCRIPTIONS[scope]}
              </label>
            ))}
            <p className="hint">No token can top up or manage tokens: those need you signed in here.</p>
          </fieldset>
          <Field id="token-expiry" label="Expires">
            {(control) => (
              <select {...control} name="expiry" defaultValue="90">
                {EXPIRY_CHOICES.map((c) => (
                  <option key={c.value} value={c.value}>
                    {c.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <button type="submit" className="button button-primary" disabled={pending}>
            Create token
          </button>
        </form>
        <FormError message={error?.message ?? null} details={error?.details} />
        {created ? (
          <SecretShownOnce
            intro={
              <>
                <strong>Copy your new token “{created.name}” now.</strong> This is the only time it is shown: we keep
                only a fingerprint of it, so it cannot be shown again.
              </>
            }
            id="token-secret"
            label="New token"
            value={created.secret}
            onSaved={() => setCreated(null)}
          />
        ) : null}
      </section>

      <section aria-labelledby="token-list-title">
        <h2 id="token-list-title">Your tokens</h2>
        <CardList rows={tokens.length} empty="You have no tokens yet.">
          {tokens.map((t) => (
            <li key={t.id} className={t.revokedAt ? "token token-revoked" : "token"} data-token-id={t.id}>
              <div className="token-main">
                <strong>{t.name}</strong> <span className="mono muted">ovp_{t.prefix}…</span>
                {t.revokedAt ? <span className="badge badge-danger">revoked</span> : null}
                {!t.revokedAt && t.expiresAt && Date.parse(t.expiresAt) <= now ? (
                  <span className="badge badge-danger">expired</span>
                ) : null}
              </div>
              <div className="token-scopes-list mono" aria-label={`Scopes of ${t.name}`}>
                {t.scopes.join(" · ") || "no scopes"}
              </div>
              <div className="token-meta muted">
                Created {when(t.createdAt)} · expires {when(t.expiresAt)} · last used {when(t.lastUsedAt)}
                {t.revokedAt ? ` · revoked ${when(t.revokedAt)}` : ""}
              </div>
              {t.revokedAt ? null : confirming === t.id ? (
                <ConfirmRow
                  className="token-actions"
                  label={`Confirm revoking ${t.name}`}
                  question={`Revoke “${t.name}”? Anything using it stops working at once.`}
                  confirm="Yes, revoke"
                  pending={pending}
                  onConfirm={() => revoke(t.id)}
                  onCancel={() => setConfirming(null)}
                />
              ) : (
                <div className="token-actions">
                  <AskButton action="Revoke" name={t.name} onClick={() => setConfirming(t.id)} />
                </div>
              )}
            </li>
          ))}
        </CardList>
      </section>
    </>
  );
}
