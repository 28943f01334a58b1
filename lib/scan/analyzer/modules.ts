// Module loads the code makes (import, export from, require, import()): each becomes a reference
// the rules see, and a request by a literal name is kept for the module graph (../graph.ts).
import { key, type N } from "./ast";
import { isBuiltinModule, normalizeModule } from "./names";
import { ANY, ref, type V } from "./values";
import { Evaluator } from "./evaluator";

export abstract class ModuleLoads extends Evaluator {
  protected visitImport(n: N) {
    const spec = n.source.value as string;
    const mod = this.loadModule(spec, n.source.span.start, n.span.start);
    for (let _i10 = 0, _a10 = n.specifiers; _i10 < _a10.length; _i10++) {
      const s = _a10[_i10]!;
      let v: V;
      if (s.type === "ImportSpecifier") {
        const name = s.imported ? (s.imported.value as string) : (s.local.value as string);
        v = this.member(mod, name, s.span.start);
      } else v = mod;
      this.identMemo.set(key(s.local), v);
    }
  }

  protected checkReexport(n: N) {
    const mod = this.loadModule(n.source.value, n.source.span.start, n.span.start);
    for (const s of n.specifiers ?? []) {
      const name = s.orig?.value;
      if (typeof name === "string") this.member(mod, name, s.span.start);
    }
  }

  protected loadModule(spec: string, pos: number, stmtPos: number): V {
    if (/^(data|https?|file|blob):/i.test(spec)) {
      this.report(/^data:/i.test(spec) ? "payload.code" : "module.forbidden", pos, spec.slice(0, 60));
      return ANY;
    }
    if (!isBuiltinModule(spec)) this.requests.push({ spec, pos });
    const m = normalizeModule(spec);
    this.refCreated(m, "", stmtPos);
    return ref(m);
  }
}
