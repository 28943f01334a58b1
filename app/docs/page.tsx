import type { Metadata } from "next";
import Link from "next/link";
import { GUIDES } from "@/lib/docs/guides";

export const metadata: Metadata = { title: "Docs" };

export default function DocsPage() {
  return (
    <>
      <h1>Docs</h1>
      <p className="lead">Three tasks, step by step, and the reference of every API route.</p>
      <section aria-labelledby="guides">
        <h2 id="guides">Guides</h2>
        <ul>
          {GUIDES.map((g) => (
            <li key={g.slug}>
              <Link href={`/docs/${g.slug}`}>{g.title}</Link> — {g.lead}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="reference">
        <h2 id="reference">Reference</h2>
        <ul>
          <li>
            <Link href="/docs/api">API reference</Link> — rendered from{" "}
            <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI 3.1)
          </li>
        </ul>
      </section>
    </>
  );
}
