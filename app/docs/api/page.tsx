import type { Metadata } from "next";
import Link from "next/link";
import { apiReference } from "@/lib/openapi/view";
import css from "../docs.module.css";

export const metadata: Metadata = { title: "API reference" };

const slug = (tag: string) => tag.toLowerCase().replace(/[^a-z0-9]+/g, "-");

export default function ApiReferencePage() {
  const groups = apiReference();
  return (
    <>
      <p className="breadcrumb">
        <Link href="/docs">Docs</Link> / API reference
      </p>
      <h1>API reference</h1>
      <p className="lead">
        Every route under <code className="mono">/api/v1</code>, from the OpenAPI 3.1 document at{" "}
        <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>. Errors answer{" "}
        <code className="mono">{"{ error: { code, message, details? } }"}</code> with a stable code.
      </p>
      <nav aria-label="API sections">
        <ul className={css.toc}>
          {groups.map((g) => (
            <li key={g.tag}>
              <a href={`#${slug(g.tag)}`}>{g.tag}</a>
            </li>
          ))}
        </ul>
      </nav>
      {groups.map((g) => (
        <section key={g.tag} className={css.section} aria-labelledby={slug(g.tag)}>
          <h2 id={slug(g.tag)}>{g.tag}</h2>
          {g.operations.map((o) => (
            <article key={o.id} id={o.id} className={css.operation} aria-labelledby={`${o.id}-h`}>
              <h3 id={`${o.id}-h`}>
                <span className={css.method}>{o.method}</span> <code className="mono">{o.path}</code>
              </h3>
              <p>{o.summary}</p>
              <p className="muted">Authentication: {o.auth}</p>
              {o.fields.length > 0 && (
                <div className="table-scroll">
                  <table className={`data-table ${css.table}`}>
                    <caption className="visually-hidden">
                      Parameters of {o.method} {o.path}
                    </caption>
                    <thead>
                      <tr>
                        <th scope="col">Name</th>
                        <th scope="col">In</th>
                        <th scope="col">Type</th>
                      </tr>
                    </thead>
                    <tbody>
                      {o.fields.map((f) => (
                        <tr key={`${f.where}-${f.name}`}>
                          <th scope="row" className="mono">
                            {f.name}
                            {f.required ? "" : "?"}
                          </th>
                          <td>{f.where}</td>
                          <td>{f.type}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
              <ul>
                {o.responses.map((r) => (
                  <li key={r.status}>
                    <strong className="mono">{r.status}</strong> {r.description}
                  </li>
                ))}
              </ul>
            </article>
          ))}
        </section>
      ))}
    </>
  );
}
