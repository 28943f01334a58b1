// "In the public log since … (entry N)": where this version stands in the registry's transparency
// log, with a link to its inclusion proof and the command that checks it without trusting us.
import type { SkillPageData } from "@/lib/registry/skill-page";
import styles from "./log-line.module.css";

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

export function LogLine({ log, skillRef }: { log: SkillPageData["log"]; skillRef: string }) {
  if (!log) {
    return <p className="muted">This version is not in the public log.</p>;
  }
  const proof = `/api/v1/log/proof/inclusion?leaf=${log.entry}&size=${log.proofSize}`;
  return (
    <p className={styles.line}>
      In the public log since <time dateTime={log.since}>{dateFormat.format(new Date(log.since))} UTC</time> (entry{" "}
      {log.entry}) · <a href={proof}>inclusion proof</a>
      <span className={styles.check}>
        Check it yourself, without trusting this site: <code>openvibe verify {skillRef}</code>
      </span>
    </p>
  );
}
