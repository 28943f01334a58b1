import { formatBytes, type Attestation, type EgressRecord } from "@/lib/protocol";
import styles from "./run.module.css";
import { ColumnHeads } from "@/components/column-heads";

/** "api.example:443, 2.1 KB up, 14 KB down" as rows: every connection the tool tried. */
function EgressTable({ egress }: { egress: EgressRecord }) {
  if (egress.length === 0) return <p className="empty">This run made no network connections.</p>;
  return (
    <table className={styles.egress} data-testid="egress-table">
      <ColumnHeads names={["Host", "Address", "Outcome", "Up", "Down", "Time"]} />
      <tbody>
        {egress.map((e, i) => (
          <tr key={i} className={e.verdict === "denied" ? styles.blocked : undefined}>
            <td className="mono">
              {e.host}:{e.port}
              {e.count > 1 ? <span className="muted"> ×{e.count}</span> : null}
            </td>
            <td className="mono">{e.address ?? "—"}</td>
            <td>
              {e.verdict === "denied"
                ? `blocked (${e.reason ?? "refused"})`
                : e.reason
                  ? `allowed, ${e.reason}`
                  : "allowed"}
            </td>
            <td>{formatBytes(e.bytes_up)}</td>
            <td>{formatBytes(e.bytes_down)}</td>
            <td>{e.duration_ms} ms</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The Link's signed statement of the result, its egress record, and RUN.json for `openvibe verify-run`. */
export function AttestationSection({ runId, attestation }: { runId: string; attestation: Attestation | null }) {
  return (
    <>
      <section aria-labelledby="egress-title">
        <h2 id="egress-title">Network</h2>
        <p className="hint">
          Every connection the tool tried through the Link&apos;s egress proxy, as the Link signed it.
        </p>
        {attestation ? (
          <EgressTable egress={attestation.statement.egress} />
        ) : (
          <p className="empty">No signed record (yet).</p>
        )}
      </section>
      <section className="panel" aria-labelledby="attestation-title">
        <h2 id="attestation-title">Signed result</h2>
        {attestation ? (
          <>
            <dl className={`facts ${styles.facts}`}>
              <dt>Signed by</dt>
              <dd className="mono">
                Link {attestation.statement.link_id} ({attestation.key_id.slice(0, 24)}…)
              </dd>
              <dt>Code</dt>
              <dd className="mono">{attestation.statement.integrity}</dd>
              <dt>Inputs</dt>
              <dd className="mono">sha256:{attestation.statement.input_digest}</dd>
              <dt>Output</dt>
              <dd className="mono">sha256:{attestation.statement.output_sha256}</dd>
            </dl>
            <p>
              <a
                href={`/api/v1/runs/${runId}/attestation`}
                download={`RUN-${runId}.json`}
                data-testid="export-attestation"
              >
                Export attestation
              </a>{" "}
              <span className="muted">
                (RUN.json; anyone can check it with <code>openvibe verify-run RUN.json</code>)
              </span>
            </p>
          </>
        ) : (
          <p className="empty">The Link has not reported a signed result for this run.</p>
        )}
      </section>
    </>
  );
}
