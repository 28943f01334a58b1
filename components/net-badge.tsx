// A tool's network policy in the words a person reads (ADR-060: "no internet", "OpenVibe sites
// only", "the internet"), coloured by how far it reaches.
import type { NetPolicy } from "@/lib/contracts/types";
import { NET_WORDS } from "@/lib/registry/plain-words";
import styles from "./badges.module.css";

const TONE: Record<NetPolicy, string> = {
  deny: styles.calm ?? "",
  "openvibe-only": styles.note ?? "",
  public: styles.warn ?? "",
};

export function NetBadge({ net }: { net: NetPolicy }) {
  return <span className={`${styles.badge} ${TONE[net]}`}>{NET_WORDS[net]}</span>;
}
