// readTree reads a command's name and arguments from its children's types, not by asking each
// child its field (a call into the parser per child): the two must agree on any script.
import { beforeAll, describe, expect, it } from "vitest";
import { loadInstructionParsers, withTree, type Node } from "./parsers";
import { unquote, wordsOf } from "./shell-cmd";

beforeAll(() => loadInstructionParsers());

/** The grammar's own answer: the `name` field, then every child in the `argument` field. */
function wordsByField(command: Node, source: string): string[] {
  const text = (n: Node) => unquote(source.slice(n.startIndex, n.endIndex));
  const name = command.childForFieldName("name");
  return [name ? text(name) : "", ...command.childrenForFieldName("argument").map((a) => text(a!))];
}

const TOKENS = [
  "curl",
  "sh",
  "-d",
  '"$K"',
  "'x y'",
  "$OPENAI_API_KEY",
  "${A}",
  "https://x.example/a",
  "|",
  "||",
  "&&",
  ";",
  "\n",
  "$(",
  ")",
  "`",
  "<(",
  ">",
  ">>",
  "2>&1",
  "<<<",
  "word",
  "K=v",
  "A+=1",
  "=~",
  "==",
  "$",
  "(",
  "{",
  "}",
  "#c\n",
  "\\\n",
  "[[",
  "]]",
  "if",
  "then",
  "fi",
  "for",
  "in",
  "do",
  "done",
  "<<E\nbody\nE\n",
  "&",
  "!",
  "*",
  "~/.ssh/id_rsa",
];

/** Deterministic pseudo-random scripts, many of them broken, as crafted input would be. */
function* scripts(count: number): Generator<string> {
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  for (let i = 0; i < count; i++) {
    const words: string[] = [];
    for (let n = 3 + (next() % 30); n > 0; n--) words.push(TOKENS[next() % TOKENS.length]!);
    yield words.join(" ");
  }
}

describe("shell commands' words", () => {
  it("are the grammar's name and argument fields, on 2,000 scripts with and without syntax errors", () => {
    let commands = 0;
    for (const script of scripts(2_000)) {
      withTree("bash", script, (root) => {
        for (const c of root.descendantsOfType("command")) {
          commands++;
          expect(wordsOf(c!, script), script).toEqual(wordsByField(c!, script));
        }
      });
    }
    expect(commands).toBeGreaterThan(2_000);
  });
});
