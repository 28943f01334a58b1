// One shell command as the rules see it (its program, words and place), the words' meaning
// (downloads, decodes, interprets, sends), and one pass over a parsed script that collects every
// node the rules read, so no rule walks the tree again.
import { isKnownInstaller } from "./hosts";
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

/** A command's program and arguments as parsed, before wrappers (`sudo`, `env`, `timeout`) are peeled. */
function commandOf(node: Node, words: string[], source: string): Cmd {
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

const READ_TYPES = ["command", "pipeline", "redirected_statement", "variable_assignment", "heredoc_body"];
/**
 * A command's children that are neither its name nor an argument: the grammar gives the rest of
 * them the field `argument` (anonymous `$`, `=~` and `==` included), so no child is asked its field.
 */
const NOT_ARGUMENT = new Set([
  "variable_assignment",
  "file_redirect",
  "herestring_redirect",
  "subshell",
  "comment",
  "ERROR",
]);

export function wordsOf(command: Node, source: string): string[] {
  const words = [""];
  let named = false;
  for (const k of command.children) {
    if (!k || NOT_ARGUMENT.has(k.type)) continue;
    const word = unquote(source.slice(k.startIndex, k.endIndex));
    if (!named && k.type === "command_name") {
      words[0] = word;
      named = true;
    } else if (named && (k.isNamed || k.type === "$" || k.type === "=~" || k.type === "==")) words.push(word);
  }
  return words;
}

/**
 * `source` is the text `root` was parsed from. One call lists every node the rules read, in
 * document order, parents first: a tree-sitter query walks the tree more slowly, and asking a
 * command for its fields costs a call per field.
 */
export function readTree(root: Node, source: string): ShellTree {
  const tree: ShellTree = { cmds: [], pipelines: [], redirected: [], assignments: [], heredocs: [] };
  for (const n of root.descendantsOfType(READ_TYPES)) {
    if (!n) continue;
    const type = n.type;
    if (type === "command") tree.cmds.push(commandOf(n, wordsOf(n, source), source));
    else if (type === "pipeline") tree.pipelines.push(n);
    else if (type === "redirected_statement") tree.redirected.push(n);
    else if (type === "variable_assignment") tree.assignments.push(assignmentOf(n, source));
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
