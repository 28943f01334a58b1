// One round trip from claim to run: a Link that polls with `inline` gets its job already started,
// with its pinned inputs' bytes in the answer when they total at most 256 KiB. A Link that does not
// ask (an older one) gets the job placed, starts it and fetches each input as before.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";
import type { NextPoll } from "../../lib/protocol";
import {
  closeRunPath,
  linkFor,
  ok,
  pendingStep,
  report,
  signed,
  textToolsPerson,
  type TestLink,
} from "../helpers/runs";

let env: IntegrationEnv;
let runs: typeof import("../../lib/runs");
let person: { id: string };
let versionId: string;
let projectId: string;

const poll = (link: TestLink, inline?: boolean) =>
  runs.pollForJob(link, {
    runner: "on",
    runner_epoch: 0,
    pool: false,
    wait_ms: 0,
    ...(inline === undefined ? {} : { inline }),
  });

async function queuedJob(): Promise<string> {
  const step = await pendingStep(env, { userId: person.id, projectId, versionId });
  expect((await runs.submitStepJob(step.id, false)).kind).toBe("queued");
  return (await env.db.runJob.findFirstOrThrow({ where: { stepId: step.id } })).id;
}

beforeAll(async () => {
  env = await setupIntegration("handover");
  runs = await import("../../lib/runs");
  ({ person, projectId, versionId } = await textToolsPerson("handover@example.test"));
}, 120_000);

afterAll(async () => {
  await closeRunPath();
  await env?.teardown();
});

describe("a poll with inline", () => {
  it("hands the job over started, with every input's bytes, each matching its pinned sha256", async () => {
    const link = await linkFor(env, person.id);
    const jobId = await queuedJob();
    const answer = await poll(link, true);
    expect(answer.job?.id).toBe(jobId);
    expect(answer.started).toBe(true);
    const job = await env.db.runJob.findUniqueOrThrow({ where: { id: jobId }, include: { step: true } });
    expect([job.state, job.step?.status, job.linkId]).toEqual(["running", "running", link.linkId]);
    const pinned = (
      answer.job as unknown as { inputs: Array<{ media_id: string; sha256: string; size_bytes: number }> }
    ).inputs;
    expect(answer.inputs?.map((i) => i.media_id).sort()).toEqual(pinned.map((i) => i.media_id).sort());
    for (const input of pinned) {
      const bytes = Buffer.from(answer.inputs!.find((i) => i.media_id === input.media_id)!.base64, "base64");
      expect([createHash("sha256").update(bytes).digest("hex"), bytes.length]).toEqual([
        input.sha256,
        input.size_bytes,
      ]);
    }
    // Nothing else to call before the result: it is recorded as for a job started separately.
    await expect(report(link, jobId, ok({ slug: "hello-world" }))).resolves.toMatchObject({
      recorded: true,
      state: "succeeded",
    });
  });

  it("starts a job whose inputs total more than 256 KiB but leaves them to be fetched", async () => {
    const link = await linkFor(env, person.id);
    const jobId = await queuedJob();
    const job = await env.db.runJob.findUniqueOrThrow({ where: { id: jobId } });
    const inputs = (job.inputs as Array<{ size_bytes: number }>).map((input, i) =>
      i === 0 ? { ...input, size_bytes: 300 * 1024 } : input,
    );
    await env.db.runJob.update({ where: { id: jobId }, data: { inputs } });
    const answer = await poll(link, true);
    expect(answer.job?.id).toBe(jobId);
    expect(answer.started).toBe(true);
    expect(answer.inputs).toBeUndefined();
    expect((await env.db.runJob.findUniqueOrThrow({ where: { id: jobId } })).state).toBe("running");
    await expect(report(link, jobId, ok({ slug: "hello-world" }))).resolves.toMatchObject({
      recorded: true,
      state: "succeeded",
    });
  });

  it("does not hand over a job withdrawn as it would start: it is cancelled and the poll goes on", async () => {
    const link = await linkFor(env, person.id);
    const jobId = await queuedJob();
    await env.db.install.updateMany({ where: { userId: person.id, versionId }, data: { enabled: false } });
    try {
      const answer = await poll(link, true);
      expect(answer.job).toBeNull();
      expect(answer.started).toBeUndefined();
      expect((await env.db.runJob.findUniqueOrThrow({ where: { id: jobId } })).state).toBe("cancelled");
    } finally {
      await env.db.install.updateMany({ where: { userId: person.id, versionId }, data: { enabled: true } });
    }
  });

  it("wakes those who follow a step's progress at its start, and those who wait for its end only at its end", async () => {
    const { watch, channels } = await import("../../lib/events");
    const link = await linkFor(env, person.id);
    const jobId = await queuedJob();
    const { stepId } = await env.db.runJob.findUniqueOrThrow({ where: { id: jobId } });
    const ending = watch([channels.step(stepId!)]);
    const progress = watch([channels.stepProgress(stepId!)]);
    try {
      expect((await poll(link, true)).job?.id).toBe(jobId);
      expect(await progress.next(2_000)).toBe(true);
      expect(await ending.next(300)).toBe(false);
      await report(link, jobId, ok({ slug: "hello-world" }));
      expect(await ending.next(2_000)).toBe(true);
    } finally {
      ending.close();
      progress.close();
    }
  });

  it("starts a flagged version's job only while the person's confirmation matches its findings", async () => {
    const link = await linkFor(env, person.id);
    const listing = await env.db.listing.findUniqueOrThrow({ where: { versionId } });
    const version = await env.db.skillVersion.findUniqueOrThrow({ where: { id: versionId } });
    await env.db.skillVersion.update({ where: { id: versionId }, data: { status: "flagged" } });
    await env.db.listing.update({ where: { versionId }, data: { findingsHash: "findings-1" } });
    const confirm = (ack: string | null) =>
      env.db.install.updateMany({ where: { userId: person.id, versionId }, data: { findingsAckHash: ack } });
    try {
      await confirm("findings-1");
      const confirmed = await queuedJob();
      const answer = await poll(link, true);
      expect([answer.job?.id, answer.started]).toEqual([confirmed, true]);
      expect((await env.db.runJob.findUniqueOrThrow({ where: { id: confirmed } })).state).toBe("running");
      await report(link, confirmed, ok({ slug: "hello-world" }));

      // Its findings change after the call was queued: the confirmation no longer covers them.
      const stale = await queuedJob();
      await env.db.listing.update({ where: { versionId }, data: { findingsHash: "findings-2" } });
      expect((await poll(link, true)).job).toBeNull();
      expect((await env.db.runJob.findUniqueOrThrow({ where: { id: stale } })).state).toBe("cancelled");
    } finally {
      await env.db.skillVersion.update({ where: { id: versionId }, data: { status: version.status } });
      await env.db.listing.update({ where: { versionId }, data: { findingsHash: listing.findingsHash } });
      await confirm(null);
    }
  });
});

describe("a result with `next` (the Link's next poll folded into it)", () => {
  const next: NextPoll = {
    runner: "on",
    runner_epoch: 0,
    pool: false,
    inline: true,
    max: 1,
    mem_free_bytes: 128 << 20,
  };
  const resultOf = async (link: TestLink, jobId: string, ask: NextPoll) =>
    runs.recordResultAndClaim(link, jobId, { ...(await signed(link, jobId, ok({ slug: "hello-world" }))), next: ask });
  const stateOf = async (jobId: string) => (await env.db.runJob.findUniqueOrThrow({ where: { id: jobId } })).state;

  it("hands over the job for the slot it frees, started, with its inputs; a repeat of it hands nothing", async () => {
    const link = await linkFor(env, person.id);
    const first = await queuedJob();
    expect((await poll(link, true)).job?.id).toBe(first);
    const second = await queuedJob();
    const third = await queuedJob();

    const answer = await resultOf(link, first, next);
    expect([answer.recorded, answer.state, await stateOf(first)]).toEqual([true, "succeeded", "succeeded"]);
    expect(answer.next?.jobs?.map((h) => [h.job.id, h.started])).toEqual([[second, true]]);
    const pinned = (answer.next!.jobs![0]!.job as unknown as { inputs: Array<{ media_id: string; sha256: string }> })
      .inputs;
    for (const input of pinned) {
      const carried = answer.next!.jobs![0]!.inputs!.find((i) => i.media_id === input.media_id)!;
      expect(createHash("sha256").update(Buffer.from(carried.base64, "base64")).digest("hex")).toBe(input.sha256);
    }
    expect(await stateOf(second)).toBe("running");

    // The same result again (a retry: the Link never heard that answer) hands the same job over
    // again, started, and claims no other: the third job stays queued.
    const again = await resultOf(link, first, next);
    expect(again.recorded).toBe(false);
    expect(again.next?.jobs?.map((h) => [h.job.id, h.started])).toEqual([[second, true]]);
    expect(await stateOf(third)).toBe("queued");

    // A Link whose runner went off takes nothing with its result.
    const off = await resultOf(link, second, { ...next, runner: "off", runner_epoch: 1 });
    expect([off.recorded, off.next?.runner, off.next?.jobs]).toEqual([true, "off", []]);
    expect(await stateOf(third)).toBe("queued");
    // Once the job it brought has ended, a repeat of the first result brings nothing.
    const late = await resultOf(link, first, next);
    expect([late.recorded, late.next]).toEqual([false, undefined]);

    const other = await linkFor(env, person.id);
    expect((await poll(other, true)).job?.id).toBe(third);
    await report(other, third, ok({ slug: "hello-world" }));
  });
});

describe("a poll without inline (an older Link)", () => {
  it("gets the job placed, with neither started nor inputs, and starts and fetches it separately", async () => {
    const link = await linkFor(env, person.id);
    const jobId = await queuedJob();
    const answer = await poll(link);
    expect(answer.job?.id).toBe(jobId);
    expect(Object.keys(answer).sort()).toEqual(["cancel", "job", "revoked", "runner"]);
    expect((await env.db.runJob.findUniqueOrThrow({ where: { id: jobId } })).state).toBe("placed");
    await expect(runs.startJob(link, jobId)).resolves.toEqual({ id: jobId, state: "running" });
    const pinned = (answer.job as unknown as { inputs: Array<{ media_id: string; sha256: string }> }).inputs;
    const bytes = await runs.jobInputBytes(link, jobId, pinned[0]!.media_id);
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(pinned[0]!.sha256);
    await expect(report(link, jobId, ok({ slug: "hello-world" }))).resolves.toMatchObject({
      recorded: true,
      state: "succeeded",
    });
  });
});
