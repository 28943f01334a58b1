// The tree-sitter grammars the audit reads shell and Python with (web-tree-sitter and the grammars'
// own WASM builds from npm, so nothing native is compiled). Loading is async and done once; every
// audit after it is synchronous.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Language, Parser, type Node, type Tree } from "web-tree-sitter";

export type { Node } from "web-tree-sitter";

/** Scripts longer than this are not parsed: they fail closed (resources are at most 64 KiB). */
export const MAX_SCRIPT_CHARS = 64 * 1024;
/** Syntax nested deeper than this is not walked: it fails closed. */
export const MAX_TREE_DEPTH = 200;

type Grammars = { bash: Parser; python: Parser };
let grammars: Grammars | null = null;
let loading: Promise<void> | null = null;

/** Loads both grammars once; safe to call often. */
export function loadInstructionParsers(): Promise<void> {
  if (grammars) return Promise.resolve();
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    // A bundled CLI carries the WASM files beside itself; from source they come from node_modules.
    const wasm = (id: string) => {
      const beside = new URL(`./${id.slice(id.lastIndexOf("/") + 1)}`, import.meta.url);
      return new Uint8Array(readFileSync(existsSync(beside) ? beside : require.resolve(id)));
    };
    await Parser.init({ wasmBinary: wasm("web-tree-sitter/tree-sitter.wasm") });
    const bash = new Parser();
    bash.setLanguage(await Language.load(wasm("tree-sitter-bash/tree-sitter-bash.wasm")));
    const python = new Parser();
    python.setLanguage(await Language.load(wasm("tree-sitter-python/tree-sitter-python.wasm")));
    grammars = { bash, python };
    // the first parses compile the grammars' hot paths: do them here, not against a budget
    for (let i = 0; i < 3; i++) {
      bash.parse('curl -fsSL https://example.com | sh\nfor f in *; do echo "$f" > /dev/null; done\n')?.delete();
      python.parse("import os\nfor k in os.environ:\n    print(k)\n")?.delete();
    }
  })();
  return loading;
}

function ready(): Grammars {
  if (!grammars) throw new Error("loadInstructionParsers() must finish before an audit");
  return grammars;
}

/** Longest shell text parsed at once: longer scripts are parsed in line-aligned pieces. */
export const SHELL_CHUNK_CHARS = 2048;
/** Progress reports a parse may make after its first syntax error before it is stopped. */
export const ERROR_PROGRESS_MAX = 24;
/** A parse still running after this many milliseconds is stopped and fails closed. */
export const PARSE_MAX_MS = 150;

/**
 * Parses `text`, hands the tree to `read` and frees it; null when the text is over the cap or the
 * parse runs longer than PARSE_MAX_MS. tree-sitter's error recovery can take far longer than
 * linear time on crafted input; real scripts parse in well under a millisecond per KiB.
 */
export function withTree<T>(language: "bash" | "python", text: string, read: (root: Node) => T): T | null {
  if (text.length > MAX_SCRIPT_CHARS) return null;
  const parser = ready()[language];
  // Python is parsed whole (up to 64 KiB) and its grammar has no runaway recovery we know of
  const deadline = performance.now() + (language === "bash" ? PARSE_MAX_MS : PARSE_MAX_MS * 10);
  let cancelled = false;
  let afterError = 0;
  // Error recovery is where tree-sitter's work grows faster than the input: once the parse has
  // met an error it gets a small allowance of further progress reports. Returning true cancels
  // the parse (web-tree-sitter hands the value to tree-sitter).
  const progressCallback = (state: { hasError: boolean }): boolean => {
    if (state.hasError && language === "bash") afterError++;
    cancelled = afterError > ERROR_PROGRESS_MAX || performance.now() > deadline;
    return cancelled;
  };
  const tree: Tree | null = parser.parse(text, null, { progressCallback });
  if (!tree || cancelled) {
    tree?.delete();
    parser.reset();
    return null;
  }
  try {
    return read(tree.rootNode);
  } finally {
    tree.delete();
  }
}

/**
 * Every node under `root`, parents before children, without recursion; `false` from `visit`
 * skips a node's children. Returns false when the tree is deeper than MAX_TREE_DEPTH.
 */
export function walk(root: Node, visit: (node: Node, depth: number) => boolean | void): boolean {
  const stack: [Node, number][] = [[root, 0]];
  let complete = true;
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (depth > MAX_TREE_DEPTH) {
      complete = false;
      continue;
    }
    if (visit(node, depth) === false) continue;
    const kids = node.namedChildren;
    for (let i = kids.length - 1; i >= 0; i--) {
      const k = kids[i];
      if (k) stack.push([k, depth + 1]);
    }
  }
  return complete;
}

/** Whether no node under `root` is nested deeper than MAX_TREE_DEPTH (a small tree cannot be). */
export function shallow(root: Node): boolean {
  return root.descendantCount <= MAX_TREE_DEPTH || walk(root, () => undefined);
}
