// Walks the transition table of steps and jobs: every move starts from a live state and lands on
// a known one, final states have no way out, every live state can end, and a job's step moves in
// step with it.
import { describe, expect, it } from "vitest";
import { JOB_STATES } from "../../protocol";
import {
  JOB_ACTIVE,
  JOB_FINAL,
  JOB_TRANSITIONS,
  STEP_FINAL,
  STEP_ONLY,
  STEP_STATUSES,
  isJobFinal,
  isStepFinal,
  jobMayMove,
  stepAfterJob,
  stepMayMove,
  type JobTransition,
  type StepOnlyTransition,
} from "./table";

const jobTransitions = Object.keys(JOB_TRANSITIONS) as JobTransition[];
const stepTransitions = Object.keys(STEP_ONLY) as StepOnlyTransition[];

describe("the job table", () => {
  it("knows every job state of the protocol, split into active and final", () => {
    expect([...JOB_ACTIVE, ...JOB_FINAL].sort()).toEqual([...JOB_STATES].sort());
  });

  it("moves only out of active states, into known ones", () => {
    for (const name of jobTransitions) {
      const t = JOB_TRANSITIONS[name];
      expect(t.from.length, name).toBeGreaterThan(0);
      for (const from of t.from) expect(isJobFinal(from), `${name} from ${from}`).toBe(false);
      expect(JOB_STATES, name).toContain(t.to);
    }
  });

  it("has no way out of a final state", () => {
    for (const state of JOB_FINAL)
      for (const name of jobTransitions) expect(jobMayMove(name, state), `${name} from ${state}`).toBe(false);
  });

  it("lets every active state reach every final one it should, and all of them end", () => {
    const reach = (start: string) => {
      const seen = new Set([start]);
      const queue = [start];
      while (queue.length) {
        const state = queue.shift()!;
        for (const name of jobTransitions) {
          if (!jobMayMove(name, state)) continue;
          const next = JOB_TRANSITIONS[name].to;
          if (seen.has(next)) continue;
          seen.add(next);
          queue.push(next);
        }
      }
      return seen;
    };
    expect([...reach("queued")].sort()).toEqual([...JOB_STATES].sort());
    for (const state of JOB_ACTIVE)
      expect(
        JOB_FINAL.some((f) => reach(state).has(f)),
        state,
      ).toBe(true);
  });

  it("places a started job again only through `replace`, and its step back to queued with it", () => {
    expect(jobMayMove("requeue", "running")).toBe(false);
    expect(jobMayMove("requeue", "placed")).toBe(true);
    expect(jobMayMove("release", "running")).toBe(false);
    expect(jobMayMove("replace", "running")).toBe(true);
    expect(jobMayMove("replace", "placed")).toBe(false);
    expect(stepAfterJob("replace", "running")).toBe("queued");
    // A withdrawn or expired run is final; a result for it cannot move it.
    for (const finalState of ["cancelled", "expired"]) {
      expect(jobMayMove("succeed", finalState)).toBe(false);
      expect(jobMayMove("fail", finalState)).toBe(false);
    }
  });

  it("moves a job's step with it: into a final step status exactly when the job ends", () => {
    for (const name of jobTransitions) {
      const t = JOB_TRANSITIONS[name];
      if (!t.step) continue;
      for (const from of t.step.from) expect(isStepFinal(from), `${name}: step from ${from}`).toBe(false);
      expect(isStepFinal(t.step.to), name).toBe(isJobFinal(t.to));
      expect(STEP_STATUSES).toContain(t.step.to);
    }
    // A transition that ends the job ends its step, whatever live status the step had.
    for (const name of jobTransitions.filter((n) => isJobFinal(JOB_TRANSITIONS[n].to))) {
      for (const live of ["queued", "running"])
        expect(stepAfterJob(name, live), `${name} from step ${live}`).not.toBeNull();
    }
    // A step that already ended is left alone by any job transition.
    for (const name of jobTransitions) for (const done of STEP_FINAL) expect(stepAfterJob(name, done)).toBeNull();
  });
});

describe("the step-only table", () => {
  it("moves only a step waiting for approval: submitted, or ended without a job", () => {
    for (const name of stepTransitions) {
      expect(STEP_ONLY[name].from, name).toEqual(["pending_approval"]);
      expect(name === "submit" ? STEP_ONLY[name].to === "queued" : isStepFinal(STEP_ONLY[name].to), name).toBe(true);
    }
    for (const status of STEP_STATUSES.filter((s) => s !== "pending_approval"))
      for (const name of stepTransitions) expect(stepMayMove(name, status), `${name} from ${status}`).toBe(false);
  });

  it("reaches every step status between the two tables", () => {
    const reached = new Set<string>(["pending_approval"]);
    for (const name of stepTransitions) reached.add(STEP_ONLY[name].to);
    for (const name of jobTransitions) if (JOB_TRANSITIONS[name].step) reached.add(JOB_TRANSITIONS[name].step!.to);
    expect([...reached].sort()).toEqual([...STEP_STATUSES].sort());
  });
});
