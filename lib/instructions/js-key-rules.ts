// JavaScript that sends a documented service key (`process.env.OPENAI_API_KEY`, or a name bound to
// it) in a request (`fetch`, `axios`, `got`, `http(s).request`, …) to a host that is not that
// service's own. Read with swc's parse (the code scanner's parser and options), walked without
// recursion; the text is parsed again only when it names such a key.
import { parseSync } from "@swc/core";
import { PARSE_OPTIONS, SourceMapper } from "../scan/text";
import { makeFinding, type Place } from "./rules";
import { keySentElsewhere, SERVICE_KEY_NAME, serviceOfKey } from "./service-keys";
import type { Ctx } from "./context";

type AstNode = { type?: string; span?: { start: number; end: number }; [k: string]: unknown };

/** Nodes read under one declaration or one request's arguments (a key read and a header map are small). */
const SUBTREE_MAX = 2000;

const REQUEST_CALL =
  /^(?:fetch|got|ky|request|axios|superagent|undici\.request|(?:axios|got|ky|superagent|request|needle)\.(?:get|post|put|patch|request)|https?\.(?:request|get)|\$\.(?:ajax|post|get))$/;

/** Every object node under `root`, parents first, at most `limit` of them. */
function nodes(root: unknown, limit: number): AstNode[] {
  const out: AstNode[] = [];
  const stack: unknown[] = [root];
  while (stack.length && out.length < limit) {
    const v = stack.pop();
    if (!v || typeof v !== "object") continue;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
      continue;
    }
    const n = v as AstNode;
    if (typeof n.type === "string") out.push(n);
    const kids = Object.keys(n);
    for (let i = kids.length - 1; i >= 0; i--) if (kids[i] !== "span") stack.push(n[kids[i]!]);
  }
  return out;
}

/** `a.b.c` for an identifier or a chain of plain member accesses, else "". */
function dotted(n: unknown): string {
  const x = n as AstNode | undefined;
  if (x?.type === "Identifier") return String(x.value);
  if (x?.type !== "MemberExpression") return "";
  const prop = x.property as AstNode;
  const name =
    prop.type === "Identifier"
      ? String(prop.value)
      : prop.type === "Computed" && (prop.expression as AstNode).type === "StringLiteral"
        ? String((prop.expression as AstNode).value)
        : "";
  const object = dotted(x.object);
  return object && name ? `${object}.${name}` : "";
}

/** The literal start of a string or template (`https://host/…`), or "". */
function literalText(n: unknown): string {
  const x = n as AstNode | undefined;
  if (x?.type === "StringLiteral") return String(x.value);
  if (x?.type === "TemplateLiteral") return ((x.quasis as AstNode[])[0]?.cooked as string | undefined) ?? "";
  return "";
}

export function auditJsKeys(text: string, place: Place, ctx: Ctx): void {
  if (!SERVICE_KEY_NAME.test(text)) return;
  let program: unknown;
  try {
    program = parseSync(text, PARSE_OPTIONS);
  } catch {
    return;
  }
  const all = nodes(program, 200_000);
  const keyVars = new Map<string, string>();
  const urlVars = new Map<string, string>();
  const keysUnder = (root: unknown): string[] => {
    const out: string[] = [];
    for (const n of nodes(root, SUBTREE_MAX)) {
      const d = n.type === "MemberExpression" || n.type === "Identifier" ? dotted(n) : "";
      const env = /^(?:process|Deno|Bun)\.env\.(\w+)$|^import\.meta\.env\.(\w+)$/.exec(d);
      const name = env ? (env[1] ?? env[2]!) : "";
      if (name && serviceOfKey(name)) out.push(name);
      else if (n.type === "Identifier" && keyVars.has(String(n.value))) out.push(keyVars.get(String(n.value))!);
    }
    return out;
  };
  for (const n of all) {
    if (n.type !== "VariableDeclarator" || !n.init) continue;
    const id = n.id as AstNode;
    const span = (n.init as AstNode).span;
    if (span && span.end - span.start > SUBTREE_MAX) continue;
    if (id.type === "Identifier") {
      const key = keysUnder(n.init)[0];
      const url = literalText(n.init);
      if (key) keyVars.set(String(id.value), key);
      else if (/^https?:\/\//i.test(url)) urlVars.set(String(id.value), url);
    } else if (id.type === "ObjectPattern" && /^(?:process|Deno|Bun)\.env$/.test(dotted(n.init))) {
      // const { OPENAI_API_KEY: key } = process.env
      for (const p of id.properties as AstNode[]) {
        const k = p.key as AstNode | undefined;
        const name = String(k?.value ?? "");
        const bound = p.type === "KeyValuePatternProperty" ? (p.value as AstNode) : k;
        if (serviceOfKey(name) && bound?.type === "Identifier") keyVars.set(String(bound.value), name);
      }
    }
  }
  const map = new SourceMapper(text, Buffer.byteLength(text) === text.length);
  for (const n of all) {
    if (n.type !== "CallExpression" && n.type !== "NewExpression") continue;
    const callee = dotted(n.callee);
    if (
      !(n.type === "CallExpression" ? REQUEST_CALL.test(callee) : callee === "Request" || callee === "XMLHttpRequest")
    )
      continue;
    const args = ((n.arguments as { expression: unknown }[] | undefined) ?? []).map((a) => a.expression);
    const keys = keysUnder(args);
    if (!keys.length) continue;
    const first = args[0] as AstNode | undefined;
    const target = first?.type === "Identifier" ? (urlVars.get(String(first.value)) ?? "") : literalText(first);
    if (!target || !keySentElsewhere(keys, [target])) continue;
    const at = map.locate(n.span?.start ?? 1);
    ctx.findings.push(makeFinding("secrets.key_exfil", place, at.excerpt, at.line - 1));
  }
}
