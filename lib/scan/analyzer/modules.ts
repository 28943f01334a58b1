// Module loads the code makes (import, export from, require, import()): each becomes a reference
// the rules see, and a request by a literal name is kept for the module graph (../graph.ts).
import type { ExportAllDeclaration, ExportNamedDeclaration, ImportDeclaration, StringLiteral } from "@swc/types";
import { key, type Ident } from "./ast";
import { isBuiltinModule, normalizeModule } from "./names";
import { ANY, ref, type V } from "./values";
import { Evaluator } from "./evaluator";

export abstract class ModuleLoads extends Evaluator {
  protected visitImport(n: ImportDeclaration) {
    const spec = n.source.value;
    const mod = this.loadModule(spec, n.source.span.start, n.span.start);
    for (const s of n.specifiers) {
      let v: V;
      if (s.type === "ImportSpecifier") {
        const name = s.imported ? s.imported.value : s.local.value;
        v = this.member(mod, name, s.span.start);
      } else v = mod;
      this.identMemo.set(key(s.local as Ident), v);
    }
  }

  protected checkReexport(n: (ExportNamedDeclaration | ExportAllDeclaration) & { source: StringLiteral }) {
    const mod = this.loadModule(n.source.value, n.source.span.start, n.span.start);
    if (n.type !== "ExportNamedDeclaration") return;
    for (const s of n.specifiers) {
      if (s.type === "ExportSpecifier") this.member(mod, s.orig.value, s.span.start);
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
