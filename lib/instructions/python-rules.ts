// Python scripts, read with tree-sitter's Python grammar: exec/eval of decoded or fetched data,
// subprocess/os.system commands (their literal command read as shell), a socket handed to a shell,
// and credentials or the whole environment reaching the network (by name, within the module).
import { auditEncodedLiterals } from "./encoded";
import { shallow, withTree, type Node } from "./parsers";
import { makeFinding, type InstructionRuleId, type Place } from "./rules";
import { keySentElsewhere, SERVICE_KEY_NAME, serviceOfKey } from "./service-keys";
import { AUTOSTART_PATH, CREDENTIAL_PATH, ENV_FILE } from "./shell-words";
import type { Ctx } from "./context";

const DECODERS =
  /(?:b64decode|b32decode|b85decode|a85decode|decodebytes|decodestring|unhexlify|fromhex|codecs\.decode|decompress|marshal\.loads|\bchr\s*\()/;
const FETCHERS =
  /(?:urlopen|urlretrieve|requests\.(?:get|post|request)|httpx\.(?:get|post|request)|\.recv\(|http\.client|urllib\.request|aiohttp|\.read\(\)\.decode)/;
const NETWORK_SINK =
  /^(?:requests\.(?:post|put|patch|get|request)|httpx\.(?:post|put|patch|get|request)|\w+\.(?:post|put|patch)|urllib\.request\.(?:urlopen|Request)|urlopen|Request|\w*\.?(?:sendall|send|sendto)|smtplib\.SMTP\w*|\w+\.sendmail|\w+\.storbinary|http\.client\.HTTPS?Connection|\w+\.request)$/;
const EXEC =
  /^(?:exec|eval|compile|builtins\.exec|builtins\.eval|__builtins__\.exec|pickle\.loads|marshal\.loads|dill\.loads)$/;
const SHELL_CALL =
  /^(?:os\.system|os\.popen|os\.exec\w*|os\.spawn\w*|subprocess\.(?:run|call|Popen|check_output|check_call|getoutput|getstatusoutput)|commands\.getoutput|pty\.spawn|asyncio\.create_subprocess_(?:shell|exec))$/;
const ENV_WHOLE = /^(?:os\.environ(?:\.copy\(\)|\.items\(\))?|dict\(os\.environ\)|os\.environ\.__dict__)$/;

const HELD_NAMES_MAX = 64;
const PY_TYPES = ["string", "assignment", "call"];

const literal = (n: Node | null | undefined): string | null => {
  if (!n || n.type !== "string") return null;
  let s = "";
  for (const c of n.namedChildren) if (c?.type === "string_content") s += c.text;
  return s;
};

export function auditPython(text: string, place: Place, ctx: Ctx): boolean {
  const add = (rule: InstructionRuleId, node: Node) =>
    ctx.findings.push(makeFinding(rule, place, node.text, node.startPosition.row));
  const done = withTree("python", text, (root) => {
    const tainted = new Map<string, "decoded" | "fetched" | "secret" | "env">();
    const sinks: Node[] = [];
    const strings: string[] = [];
    let socket = false;
    let dup = false;
    let writes = false;
    let credRead: Node | null = null;
    // names bound to a documented service key, and names bound to a web address
    const keyVars = new Map<string, string>();
    const urlVars = new Map<string, string>();
    const holds = (name: string, right: string) => {
      if (!SERVICE_KEY_NAME.test(right) && !keyVars.size && !/https?:\/\//i.test(right) && !urlVars.size) return;
      // each name is looked for in every later request: a bounded number of them keeps that linear
      if (keyVars.size + urlVars.size >= HELD_NAMES_MAX) return;
      const key = keysReadIn(right, keyVars)[0];
      if (key) keyVars.set(name, key);
      else {
        const url = targetsIn(right, urlVars)[0];
        if (url) urlVars.set(name, url);
      }
    };
    const keySent = (args: Node): boolean => {
      const text = args.text;
      if (!SERVICE_KEY_NAME.test(text) && !keyVars.size) return false;
      const keys = keysReadIn(text, keyVars);
      if (!keys.length) return false;
      // where the request goes: the first argument, or `url=`
      const to = args.namedChildren.filter(
        (a, i) => a && (a.type === "keyword_argument" ? a.childForFieldName("name")?.text === "url" : i === 0),
      );
      return (
        keySentElsewhere(
          keys,
          to.flatMap((a) => targetsIn(a!.text, urlVars)),
        ) !== null
      );
    };
    const visit = (n: Node) => {
      if (n.type === "string") {
        const s = literal(n) ?? "";
        strings.push(s);
        if (CREDENTIAL_PATH.test(s)) credRead ??= n;
      }
      if (n.type === "assignment") {
        const left = n.childForFieldName("left");
        const right = n.childForFieldName("right")?.text ?? "";
        if (left?.type === "identifier") {
          holds(left.text, right);
          const kind = DECODERS.test(right)
            ? "decoded"
            : FETCHERS.test(right)
              ? "fetched"
              : CREDENTIAL_PATH.test(right) || ENV_FILE.test(right)
                ? "secret"
                : envWhole(right)
                  ? "env"
                  : null;
          if (kind) tainted.set(left.text, kind);
          else if ([...tainted.keys()].some((t) => new RegExp(`\\b${t}\\b`).test(right)))
            tainted.set(
              left.text,
              tainted.get([...tainted.keys()].find((t) => new RegExp(`\\b${t}\\b`).test(right))!)!,
            );
        }
      }
      if (n.type !== "call") return;
      const fn = n.childForFieldName("function")?.text ?? "";
      const args = n.childForFieldName("arguments");
      const argText = args?.text ?? "";
      if (/^socket\.(?:socket|create_connection)$/.test(fn)) socket = true;
      if (fn === "os.dup2" || fn === "pty.spawn") dup = true;
      if (
        /^(?:open|\w+\.write_text|\w+\.write_bytes|shutil\.copy\w*)$/.test(fn) &&
        /["'][wa]b?\+?["']|write_/.test(argText + fn)
      )
        writes = true;
      if (EXEC.test(fn)) {
        const refs = [...tainted.entries()].filter(([t]) => new RegExp(`\\b${t}\\b`).test(argText)).map(([, k]) => k);
        if (DECODERS.test(argText) || refs.includes("decoded")) {
          add("encoded.exec", n);
          auditEncodedLiterals(
            argText,
            { resource: place.resource, line: place.line + n.startPosition.row },
            ctx,
            true,
          );
        } else if (FETCHERS.test(argText) || refs.includes("fetched")) add("shell.download_exec", n);
        else {
          const first = args?.namedChildren[0];
          const lit = literal(first);
          if (lit !== null && ctx.depth < 3) {
            ctx.depth++;
            ctx.audit("python", lit, { resource: place.resource, line: place.line + n.startPosition.row }, ctx);
            ctx.depth--;
          } else if (!/^(?:pickle|marshal|dill)/.test(fn) || refs.length) add("python.exec_dynamic", n);
        }
      }
      if (SHELL_CALL.test(fn)) {
        ctx.asks.add("shell");
        const first = args?.namedChildren[0];
        const command =
          literal(first) ??
          (first?.type === "list"
            ? first.namedChildren
                .map((x) => literal(x) ?? "X")
                .map(quoteWord)
                .join(" ")
            : null);
        if (command !== null && ctx.depth < 3) {
          ctx.depth++;
          ctx.audit("shell", command, { resource: place.resource, line: place.line + n.startPosition.row }, ctx);
          ctx.depth--;
        }
        if (/fileno\(\)/.test(argText) && socket) add("shell.reverse_shell", n);
      }
      if (NETWORK_SINK.test(fn)) {
        ctx.asks.add("network");
        sinks.push(n);
        if (args && keySent(args)) add("secrets.key_exfil", n);
        for (const [t, kind] of tainted) {
          if ((kind === "secret" || kind === "env") && new RegExp(`\\b${t}\\b`).test(argText))
            add(kind === "env" ? "env.exfil" : "secrets.exfil", n);
        }
        if (/os\.environ(?!\s*[[.]\s*(?:get\b|["']))|dict\(os\.environ\)/.test(argText)) add("env.exfil", n);
        if (CREDENTIAL_PATH.test(argText)) add("secrets.exfil", n);
      }
    };
    // the nodes the rules read, in document order; the depth bound is checked on its own
    for (const n of root.descendantsOfType(PY_TYPES)) if (n) visit(n);
    const complete = shallow(root);
    if (!complete) ctx.findings.push(makeFinding("script.too_complex", place, "nesting"));
    if (socket && dup) ctx.findings.push(makeFinding("shell.reverse_shell", place, "socket + os.dup2 / pty.spawn"));
    if (credRead && sinks.some((s) => /\b(?:data|json|files|body)\s*=|sendall|send\(|sendmail/.test(s.text)))
      add("secrets.exfil", credRead);
    if (writes && strings.some((s) => AUTOSTART_PATH.test(s)))
      ctx.findings.push(
        makeFinding(
          "persistence.install",
          place,
          strings.find((s) => AUTOSTART_PATH.test(s))!,
        ),
      );
    if (credRead) ctx.asks.add("secrets");
    return true;
  });
  if (done === null) {
    ctx.findings.push(makeFinding("script.too_complex", place, text.slice(0, 80)));
    return false;
  }
  return true;
}

const ENV_KEY_READ = /os\.(?:environ\s*\[\s*|environ\.get\s*\(\s*|getenv\s*\(\s*)["'](\w+)["']/g;

const namesIn = (text: string) => new Set(text.match(/\b[A-Za-z_]\w*/g));

/** The documented keys Python text reads from the environment, or through a name bound to one. */
function keysReadIn(text: string, keyVars: ReadonlyMap<string, string>): string[] {
  const out = [...text.matchAll(ENV_KEY_READ)].map((m) => m[1]!).filter((k) => serviceOfKey(k));
  if (keyVars.size) for (const w of namesIn(text)) if (keyVars.has(w)) out.push(keyVars.get(w)!);
  return out;
}

/** The web addresses Python text names, literally or through a name bound to one. */
function targetsIn(text: string, urlVars: ReadonlyMap<string, string>): string[] {
  const out = (text.match(/https?:\/\/[^\s'"`)}\]]+/gi) ?? []).slice(0, 20);
  if (urlVars.size) for (const w of namesIn(text)) if (urlVars.has(w)) out.push(urlVars.get(w)!);
  return out;
}

const envWhole = (right: string) =>
  ENV_WHOLE.test(right.trim()) || /os\.environ(?!\s*(?:\[|\.get\b|\.setdefault\b|\.pop\b|\.copy\(\)\s*$))/.test(right);
const quoteWord = (w: string) => (/[\s|&;<>]/.test(w) ? `'${w.replace(/'/g, "")}'` : w);
