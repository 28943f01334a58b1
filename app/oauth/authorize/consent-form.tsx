"use client";

import { useState, type ReactNode } from "react";

/**
 * The consent form. It works as a plain form; with script it posts itself and then goes to the
 * app's address, so a Content-Security-Policy `form-action` cannot block the way back to the app.
 */
export function ConsentForm({ children }: { children: ReactNode }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(form.action, {
        method: "POST",
        headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(new FormData(form, submitter) as unknown as Record<string, string>),
      });
      const body = (await res.json().catch(() => null)) as { redirect_to?: string; error?: { message?: string } } | null;
      if (res.ok && body?.redirect_to) {
        window.location.assign(body.redirect_to);
        return;
      }
      setError(body?.error?.message ?? `That did not work (${res.status}). Reload the page and try again.`);
    } catch {
      setError("We could not reach the server. Check your connection and try again.");
    }
    setBusy(false);
  }

  return (
    <form method="post" action="/oauth/consent" className="form" onSubmit={submit} aria-busy={busy}>
      {children}
      {error ? (
        <p role="alert" className="form-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}
