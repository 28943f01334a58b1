// One shell command as the rules see it (its program, words and place), the words' meaning
// (downloads, decodes, interprets, sends), and one pass over a parsed script that collects every
// node the rules read, so no rule walks the tree again.
import { isKnownInstaller } from "./hosts";
import { Query } from "web-tree-sitter";
import type { Node } from "./parsers";
import type { InstructionRuleId } from "./rules";
import {
  CREDENTIAL_PATH,
  DOWNLOADERS,
  ELEVATORS,
  ENV_FILE,
  INTERPRETERS,
  KEYCHAIN_COMMANDS,
  NET_SENDERS,
  WRAPPERS,
} from "./shell-words";

export type Add = (rule: InstructionRuleId, line: number, excerpt: string) => void;
export type Cmd = {
  node: Node;
  name: string;
  args: string[];
  line: number;
  elevated: boolean;
  text: string;
  start: number;
  end: number;
};

const QUOTING = /["'\n]/;
export const unquote = (s: string) => (QUOTING.test(s) ? s.replace(/\\\n/g, "").replace(/["']/g, "") : s);
export const base = (s: string) => s.slice(s.lastIndexOf("/") + 1);

/** `source` is the text the tree was parsed from: a node's text is its slice (one call fewer per word). */
function commandOf(node: Node, source: string): Cmd {
  const textOf = (n: Node) => source.slice(n.startIndex, n.endIndex);
  const nameNode = node.childForFieldName("name");
  const words = [nameNode ? unquote(textOf(nameNode)) : ""];
  for (const a of node.childrenForFieldName("argument")) if (a) words.push(unquote(textOf(a)));
  let elevated = false;
  let i = 0;
  while (i < words.length && WRAPPERS.has(base(words[i]!))) {
    if (ELEVATORS.has(base(words[i]!))) elevated = true;
    const wrapper = base(words[i]!);
    i++;
    while (
      i < words.length &&
      (words[i]!.startsWith("-") ||
        /^[A-Za-z_]\w*=/.test(words[i]!) ||
        (wrapper === "timeout" && /^\d/.test(words[i]!)))
    ) {
      if (/^-[ugCch]$/.test(words[i]!) && wrapper !== "su") i++;
      i++;
    }
  }
  const rest = words.slice(i);
  const start = node.startIndex;
  const end = node.endIndex;
  return {
    node,
    name: base(rest[0] ?? ""),
    args: rest.slice(1),
    line: node.startPosition.row,
    elevated,
    text: source.slice(start, end),
    start,
    end,
  };
}

export const isDownloader = (c: Cmd) =>
  DOWNLOADERS.has(c.name) || (c.name === "python3" && c.args.join(" ").includes("urllib"));
export const isDecoder = (c: Cmd) =>
  (["base64", "base32", "basenc"].includes(c.name) && c.args.some((a) => /^-(?:d|D|di|id)$|^--decode$/.test(a))) ||
  (c.name === "xxd" && c.args.some((a) => /^-r/.test(a))) ||
  (c.name === "openssl" &&
    c.args.some((a) => a === "-d" || a === "-base64" || a === "base64") &&
    c.args.includes("-d")) ||
  ["uudecode", "gunzip", "zcat", "rev", "bunzip2", "xz"].includes(c.name) ||
  (c.name === "gzip" && c.args.includes("-d")) ||
  ((c.name === "printf" || c.name === "echo") && c.args.some((a) => /\\x[0-9a-f]{2}|\\[0-7]{3}/i.test(a)));
export const isInterpreter = (c: Cmd) =>
  INTERPRETERS.has(c.name) && !c.args.some((a) => a === "--version" || a === "-V" || a === "-n");
/** An interpreter in a pipeline runs what it reads unless it was given its code (`-c`, a script file). */
export const runsStdin = (c: Cmd) => {
  if (!isInterpreter(c)) return false;
  if (c.args.some((a) => /^-(?:c|e|m|r|Command|EncodedCommand)$|^--(?:eval|command)$/i.test(a))) return false;
  if (c.args.includes("-s")) return true;
  const script = c.args.find((a) => !a.startsWith("-"));
  return script === undefined || script === "-" || script === "/dev/stdin";
};
export const urlsOf = (c: Cmd) =>
  c.args.filter((a) => /^(?:https?|ftp):\/\//i.test(a) || /^[\w-]+(?:\.[\w-]+)+\/\S*/.test(a));
export const sendsData = (c: Cmd) =>
  NET_SENDERS.has(c.name) ||
  (isDownloader(c) &&
    c.args.some((a) =>
      /^-(?:d|F|T)$|^-[a-zA-Z]*[dFT]$|^--(?:data|data-binary|data-raw|data-urlencode|form|upload-file|post-file|post-data|body-file)(?:=|$)/.test(
        a,
      ),
    ));
export const readsCredentials = (c: Cmd) =>
  c.args.some((a) => CREDENTIAL_PATH.test(a)) || (c.name === "security" && KEYCHAIN_COMMANDS.test(c.args.join(" ")));
export const readsEnvFile = (c: Cmd) => c.args.some((a) => ENV_FILE.test(" " + a));
export const dumpsEnv = (c: Cmd) =>
  ((c.name === "env" || c.name === "printenv") && c.args.every((a) => a.startsWith("-"))) ||
  (c.name === "export" && c.args.length === 1 && c.args[0] === "-p") ||
  (c.name === "declare" && c.args.length === 1 && /^-[xp]$/.test(c.args[0]!)) ||
  (c.name === "set" && c.args.length === 0) ||
  c.args.some((a) => /\/proc\/(?:self|\d+|\*)\/environ/.test(a));

export function downloadRule(urls: string[]): InstructionRuleId {
  return urls.length > 0 && urls.every(isKnownInstaller) ? "shell.known_installer" : "shell.download_exec";
}

/** `NAME=value` (also `NAME+=value`, `a[i]=value`), read from its text: one call into the parser, not four. */
export type Assignment = { node: Node; name: string; value: string };

/** The nodes of one parsed script the rules read, each list in document order, parents first. */
export type ShellTree = {
  cmds: Cmd[];
  pipelines: Node[];
  redirected: Node[];
  assignments: Assignment[];
  heredocs: Node[];
};

function assignmentOf(node: Node, source: string): Assignment {
  const text = source.slice(node.startIndex, node.endIndex);
  const eq = text.indexOf("=");
  if (eq < 0) return { node, name: text, value: "" };
  return { node, name: text.slice(0, text[eq - 1] === "+" ? eq - 1 : eq), value: text.slice(eq + 1) };
}

const READ_TYPES = ["command", "pipeline", "redirected_statement", "variable_assignment", "heredoc_body"] as const;
/**
 * One query for every node the rules read, compiled once: `descendantsOfType` costs as much again
 * as parsing a one-line command, since it looks each type up among the grammar's 280 on every call.
 */
let readQuery: Query | null = null;

/** `source` is the text `root` was parsed from. */
export function readTree(root: Node, source: string): ShellTree {
  readQuery ??= new Query(root.tree.language, READ_TYPES.map((t) => `(${t}) @${t}`).join(" "));
  const tree: ShellTree = { cmds: [], pipelines: [], redirected: [], assignments: [], heredocs: [] };
  // captures come in document order, an outer node before one that starts where it does
  for (const { name, node: n } of readQuery.captures(root)) {
    if (name === "command") tree.cmds.push(commandOf(n, source));
    else if (name === "pipeline") tree.pipelines.push(n);
    else if (name === "redirected_statement") tree.redirected.push(n);
    else if (name === "variable_assignment") tree.assignments.push(assignmentOf(n, source));
    else tree.heredocs.push(n);
  }
  return tree;
}

/** The commands inside `node` (itself included), outermost first. */
export function commandsIn(tree: ShellTree, node: Node): Cmd[] {
  const { cmds } = tree;
  const start = node.startIndex;
  const end = node.endIndex;
  let lo = 0;
  let hi = cmds.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cmds[mid]!.start < start) lo = mid + 1;
    else hi = mid;
  }
  const out: Cmd[] = [];
  for (let i = lo; i < cmds.length && cmds[i]!.start < end; i++) if (cmds[i]!.end <= end) out.push(cmds[i]!);
  return out;
}
