// The balance and held columns against the ledger they summarise, on the real PostgreSQL: parallel
// submissions spend exactly what is there, settlements take holds off, the database refuses a
// balance below zero and a changed entry, the migration's backfill rebuilds the columns, and
// `npm run ledger:check` (the real script) exits 1 naming a person whose columns differ.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../../test/helpers/integration";
import { claim, linkFor, ok, pendingStep, report, type TestLink } from "../../test/helpers/runs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const MIGRATION = path.join(ROOT, "prisma/migrations/20261202153117_ledger_balance/migration.sql");

let env: IntegrationEnv;
let runs: typeof import("../runs");
let ledger: typeof import("./ledger");
let check: typeof import("./ledger-check");
let person: { id: string; email: string };
let projectId: string;
let versionId: string;
let link: TestLink;
let worstCase: bigint;

const columns = (id: string) =>
  env.db.user.findUniqueOrThrow({ where: { id }, select: { balanceMicros: true, heldMicros: true } });

function ledgerCheck(): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ["--import", "./scripts/no-server-only.mjs", "--import", "tsx", "scripts/ledger-check.ts"],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: env.database.url, LOG_LEVEL: "error" } },
    );
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => resolve({ code, out }));
  });
}

beforeAll(async () => {
  env = await setupIntegration("ledger-columns");
  runs = await import("../runs");
  ledger = await import("./ledger");
  check = await import("./ledger-check");
  const { createUser, getDefaultProject } = await import("../auth/users");
  const { publishSkill, scanVersion } = await import("../registry");
  const { loadBundle } = await import("../contracts");
  const { installSkill } = await import("../installs");
  const { worstCaseCost } = await import("./rates");
  const created = await createUser({ email: "columns@example.test", name: "Columns", password: null });
  person = { id: created.id, email: "columns@example.test" };
  projectId = (await getDefaultProject(person.id))!.id;
  const bundle = await loadBundle(path.join(ROOT, "scripts/demo/skills/text-tools"));
  if (!bundle.ok) throw new Error("bundle");
  versionId = (await publishSkill({ ownerId: person.id, document: bundle.document, scan: "none" })).versionId;
  expect((await scanVersion(versionId)).status).toBe("passed");
  await installSkill({ userId: person.id, slug: "text-tools", version: bundle.document.version });
  const tools = (bundle.document as unknown as { tools: { name: string; limits: { wall_ms: number } }[] }).tools;
  const slugify = tools.find((t) => t.name === "slugify")!;
  worstCase = worstCaseCost(slugify.limits.wall_ms);
  link = await linkFor(env, person.id);
}, 120_000);

afterAll(async () => {
  await runs?.dispatchQueue().close();
  await (await import("../registry")).scanQueue().close();
  await (await import("../events")).closeEvents();
  await env?.teardown();
});

describe("balance columns", () => {
  it("12 parallel submissions against 5 runs' worth: 5 held, 7 refused, columns equal the ledger", async () => {
    await ledger.recordTopUp({ userId: person.id, amountMicros: worstCase * 5n + 7n, paymentId: "p1", memo: "t" });
    const steps = await Promise.all(
      Array.from({ length: 12 }, () => pendingStep(env, { userId: person.id, projectId, versionId })),
    );
    const outcomes = await Promise.all(steps.map((s) => runs.submitStepJob(s.id, false)));
    expect(outcomes.filter((o) => o.kind === "queued")).toHaveLength(5);
    expect(outcomes.filter((o) => o.kind === "insufficient_balance")).toHaveLength(7);
    expect(await columns(person.id)).toEqual({ balanceMicros: 7n, heldMicros: worstCase * 5n });
    expect(await ledger.balanceOf(person.id)).toBe(7n);
    expect(await check.ledgerDifferences()).toEqual([]);

    const jobs = [];
    for (let i = 0; i < 5; i++) jobs.push((await claim(link)).job!);
    for (const job of jobs) await runs.startJob(link, job.id);
    for (const job of jobs) await report(link, job.id, ok({ slug: "x" }, 1500));
    const after = await columns(person.id);
    expect(after.heldMicros).toBe(0n);
    const sum = await env.db.ledgerEntry.aggregate({ where: { userId: person.id }, _sum: { amountMicros: true } });
    expect(after.balanceMicros).toBe(sum._sum.amountMicros);
    expect(after.balanceMicros).toBeGreaterThan(7n);
    expect(await check.ledgerDifferences()).toEqual([]);
  });

  it("the database refuses a balance below zero and a changed entry", async () => {
    const { balanceMicros } = await columns(person.id);
    await expect(
      env.db.ledgerEntry.create({
        data: {
          userId: person.id,
          kind: "charge",
          amountMicros: -(balanceMicros + 1n),
          idempotencyKey: "over",
          memo: "x",
        },
      }),
    ).rejects.toThrow(/User_balanceMicros_check/);
    const entry = await env.db.ledgerEntry.findFirstOrThrow({ where: { userId: person.id, kind: "topup" } });
    await expect(
      env.db.ledgerEntry.update({ where: { id: entry.id }, data: { amountMicros: entry.amountMicros + 1n } }),
    ).rejects.toThrow(/append-only/);
    expect(await columns(person.id)).toMatchObject({ balanceMicros });
  });

  it("the migration's backfill rebuilds the columns from the ledger", async () => {
    const expected = await columns(person.id);
    await env.db.$executeRaw`UPDATE "User" SET "balanceMicros" = 0, "heldMicros" = 0`;
    const backfill = readFileSync(MIGRATION, "utf8")
      .split(";")
      .map((s) => s.replace(/^\s*--.*$/gm, "").trim())
      .filter((s) => s.startsWith('UPDATE "User"'));
    expect(backfill).toHaveLength(2);
    for (const sql of backfill) await env.db.$executeRawUnsafe(sql);
    expect(await columns(person.id)).toEqual(expected);
    expect(await check.ledgerDifferences()).toEqual([]);
  });

  it("npm run ledger:check exits 1 naming a person whose columns differ, 0 when all agree", async () => {
    const good = await ledgerCheck();
    expect(good, good.out).toMatchObject({ code: 0 });
    expect(good.out).toMatch(/equal their ledgers/);
    await env.db.$executeRaw`UPDATE "User" SET "heldMicros" = "heldMicros" + 3 WHERE id = ${person.id}`;
    const differs = await check.ledgerDifferences();
    expect(differs).toEqual([expect.objectContaining({ userId: person.id, heldMicros: 3n, ledgerHeldMicros: 0n })]);
    const bad = await ledgerCheck();
    expect(bad.code).toBe(1);
    expect(bad.out).toContain(person.email);
    expect(bad.out).toMatch(/held 3 \(ledger 0\)/);
    await env.db.$executeRaw`UPDATE "User" SET "heldMicros" = "heldMicros" - 3 WHERE id = ${person.id}`;
  }, 60_000);
});
