// The AST rules, in layers (analyzer/): the binder walks the tree once, the evaluator follows
// values, module loads, sinks and input-driven loops apply the rules. Where a dangerous position
// cannot be resolved, it fails.
import type { Program } from "@swc/types";
import { hasUseStrict, startOf } from "./analyzer/ast";
import { TaintAndLoops } from "./analyzer/taint-loops";

export { isBuiltinModule } from "./analyzer/names";
export type { ModuleRequest, RawFinding } from "./analyzer/binder";

export class Analyzer extends TaintAndLoops {
  run(program: Program) {
    this.sloppy = program.type === "Script" && !hasUseStrict(program.body);
    this.walkList(program.body);
    for (let _i1 = 0, _a1 = this.members; _i1 < _a1.length; _i1++) {
      const m = _a1[_i1]!;
      if (!this.inert(m)) this.evalExpr(m);
    }
    for (let _i2 = 0, _a2 = this.calls; _i2 < _a2.length; _i2++) {
      const c = _a2[_i2]!;
      if (this.inert(c)) continue;
      const v = this.evalExpr(c);
      if (v.t === "str" || v.t === "or") this.checkStringValues(v, c.span.start);
    }
    for (let _i3 = 0, _a3 = this.globalIdents; _i3 < _a3.length; _i3++) {
      const g = _a3[_i3]!;
      this.evalExpr(g);
    }
    for (const a of this.spreadArgs)
      if (this.isSensitive(this.evalExpr(a)))
        this.report("scan.unresolved", startOf(a), "spread of a sensitive object");
    for (let _i4 = 0, _a4 = this.patterns; _i4 < _a4.length; _i4++) {
      const p = _a4[_i4]!;
      this.checkPattern(p.pat, () => this.evalBind(p.src), []);
    }
    for (let _i5 = 0, _a5 = this.strings; _i5 < _a5.length; _i5++) {
      const s = _a5[_i5]!;
      this.checkLiteral(s);
    }
    for (let _i6 = 0, _a6 = this.foldRoots; _i6 < _a6.length; _i6++) {
      const r = _a6[_i6]!;
      const v = this.evalExpr(r);
      this.checkStringValues(v, r.span.start);
    }
    this.checkAppends();
    this.checkLoops();
  }

  /** `s = "…"; s += "…"; s += "…"` is one value too: join the constant pieces in source order. */
  protected checkAppends() {
    for (const [k, pieces] of this.appends) {
      if (pieces.length < 2 && !this.binds.get(k)?.some((b) => b.src && !b.taintOnly)) continue;
      let s = "";
      let p = "";
      for (const b of this.binds.get(k) ?? []) {
        if (!b.src || b.taintOnly || b.path) continue;
        const v = this.evalExpr(b.src);
        if (v.t === "str") {
          s += v.s;
          p += v.p ?? v.s;
        }
        break;
      }
      for (let _i7 = 0, _a7 = pieces; _i7 < _a7.length; _i7++) {
        const piece = _a7[_i7]!;
        const v = this.evalExpr(piece);
        if (v.t !== "str") continue;
        s += v.s;
        p += v.p ?? v.s;
        this.chargeString(s.length, piece);
      }
      if (s.length > 0) this.checkStr({ t: "str", s, p: p === s ? undefined : p, c: true }, startOf(pieces[0]!), false);
    }
  }
}
