// A list of cards (installs, grants, agents, tokens, Links, steps); with none, the words that say so.
import type { ReactNode } from "react";

export function CardList(props: { rows: number; empty: ReactNode; children: ReactNode }) {
  if (props.rows === 0) return <p className="empty">{props.empty}</p>;
  return <ul className="card-list">{props.children}</ul>;
}
