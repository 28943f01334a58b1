"use client";

// Shown when the root layout itself fails (e.g. the database is down), so it brings its own page.
export default function GlobalError({ error, retry }: { error: unknown; retry: () => void }) {
  const digest = error instanceof Error ? (error as Error & { digest?: string }).digest : undefined;
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", margin: "3rem auto", maxWidth: "36rem", padding: "0 1rem", lineHeight: 1.5 }}>
        <title>Something went wrong · OpenVibe Skills</title>
        <h1>OpenVibe Skills is having trouble</h1>
        <p>The site could not load. Try again in a moment.</p>
        <p>
          <button type="button" onClick={() => retry()}>
            Try again
          </button>
        </p>
        <p>If it keeps happening, tell us when it happened{digest ? <> and quote the reference <code>{digest}</code></> : null}.</p>
      </body>
    </html>
  );
}
