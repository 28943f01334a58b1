// A dashboard list's table (runs, the ledger), whose rows turn into cards on a narrow screen; with
// no rows, the words that say why instead. The scroll box takes focus so a keyboard can scroll it.
import type { ReactNode } from "react";
import list from "./data-table.module.css";

export function ListTable(props: { rows: number; empty: ReactNode; label: string; children: ReactNode }) {
  if (props.rows === 0) return <p className="empty">{props.empty}</p>;
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={props.label}>
      <table className={`data-table ${list.cards}`}>{props.children}</table>
    </div>
  );
}
