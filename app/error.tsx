"use client";

import Link from "next/link";
import { useEffect } from "react";

export default function ErrorPage({ error, retry }: { error: unknown; retry: () => void }) {
  const digest = error instanceof Error ? (error as Error & { digest?: string }).digest : undefined;
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <section className="panel narrow" aria-labelledby="error-title">
      <h1 id="error-title">Something went wrong on our side</h1>
      <p>This page could not be shown. Try again; it is often a passing problem.</p>
      <p className="actions">
        <button type="button" className="button button-primary" onClick={() => retry()}>
          Try again
        </button>
        <Link href="/" className="button">
          Go to the home page
        </Link>
      </p>
      <p className="muted">
        If it keeps happening, tell us what you were doing and when
        {digest ? (
          <>
            , and quote the reference <code>{digest}</code>
          </>
        ) : null}
        .
      </p>
    </section>
  );
}
