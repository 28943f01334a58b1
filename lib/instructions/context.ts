// What one audit carries from text to text: its findings, what the texts ask the agent to do, and
// the budget for decoding hidden text (so nested encodings cannot make the work grow).
import type { Lang } from "./markdown-extract";
import type { AuditFinding, Place } from "./rules";
import type { Seen } from "./segment-memo";

export type AskKind = "shell" | "install" | "admin" | "network" | "files" | "secrets" | "download_run";

/** Most characters of decoded text one audit reads, and how deep encodings may nest. */
export const DECODE_BUDGET_CHARS = 128 * 1024;
export const DECODE_MAX_DEPTH = 3;

/** Lines one audit may parse one by one after the parser gave up on the piece they were in. */
export const LINE_BUDGET = 2000;

export type Ctx = {
  lineBudget: number;
  findings: AuditFinding[];
  asks: Set<AskKind>;
  decodeBudget: number;
  depth: number;
  /** What each text already audited in this audit found (segment-memo.ts). */
  seen: Map<string, Seen>;
  /** Audits a text in a language (a `bash -c` string, decoded text); set by the audit. */
  audit: (lang: Lang, text: string, place: Place, ctx: Ctx) => void;
};

export function newCtx(audit: Ctx["audit"]): Ctx {
  return {
    findings: [],
    asks: new Set(),
    decodeBudget: DECODE_BUDGET_CHARS,
    depth: 0,
    audit,
    lineBudget: LINE_BUDGET,
    seen: new Map(),
  };
}

/** Runs `fn` one level deeper (for decoded or nested text); false when too deep. */
export function deeper(ctx: Ctx, fn: () => void): boolean {
  if (ctx.depth >= DECODE_MAX_DEPTH) return false;
  ctx.depth++;
  try {
    fn();
  } finally {
    ctx.depth--;
  }
  return true;
}
