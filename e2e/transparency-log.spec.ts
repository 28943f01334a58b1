// The skill page's place in the transparency log: "In the public log since … (entry N)", a link to
// the inclusion proof, and that proof checks out against the signed checkpoint with the log's key.
import { randomBytes } from "node:crypto";
import { expect, test } from "playwright/test";
import { hashLeaf } from "../lib/tlog/hash";
import { decodeBase64, openNote, parseCheckpoint, parseVerifierKey } from "../lib/tlog/note";
import { verifyInclusion } from "../lib/tlog/verify";

const BASE = process.env.BASE_URL?.replace(/\/$/, "") ?? "";
const url = (path: string) => `${BASE}${path}`;

test("the skill page names its log entry, links its proof, and the proof holds for the signed root", async ({
  page,
}) => {
  const id = `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
  await page.goto(url("/signup"));
  await page.getByLabel("Name").fill(`Log Reader ${id}`);
  await page.getByLabel("Email").fill(`e2e-tlog-${id}@example.test`);
  await page.getByLabel("Password").fill("correct horse battery staple");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  const slug = `logged-${id}`;
  const doc = {
    contract: "actor.skill@1",
    slug,
    version: "1.0.0",
    name: `Logged ${id}`,
    summary: "A prompt skill whose listing is in the public log.",
    instructions: "Answer plainly.",
    resources: [],
    requires: { kinds: [] },
  };
  const res = await page.request.post(url("/api/v1/skills"), { data: doc });
  expect(res.status(), await res.text()).toBe(201);

  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(url(`/skills/${slug}`));
  const line = page.getByText(/In the public log since .+ UTC \(entry \d+\)/);
  await expect(line).toBeVisible();
  const entry = Number(/\(entry (\d+)\)/.exec((await line.textContent()) ?? "")![1]);
  await expect(page.getByText(`openvibe verify ${slug}@1.0.0`)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  const proofLink = page.getByRole("link", { name: "inclusion proof" });
  await proofLink.focus();
  await expect(proofLink).toBeFocused();
  const href = (await proofLink.getAttribute("href"))!;
  const proof = (await (await page.request.get(url(href))).json()) as {
    leaf_index: number;
    tree_size: number;
    hashes: string[];
  };
  expect(proof.leaf_index).toBe(entry);

  const { vkey } = (await (await page.request.get(url("/api/v1/log/key"))).json()) as { vkey: string };
  const checkpoint = parseCheckpoint(
    openNote(await (await page.request.get(url("/api/v1/log/checkpoint"))).text(), parseVerifierKey(vkey)),
  );
  const { entries } = (await (await page.request.get(url(`/api/v1/log/versions/${slug}/1.0.0`))).json()) as {
    entries: Array<{ index: number; data: string }>;
  };
  expect(entries[0]!.index).toBe(entry);
  const atCheckpoint = (await (
    await page.request.get(url(`/api/v1/log/proof/inclusion?leaf=${entry}&size=${checkpoint.size}`))
  ).json()) as { hashes: string[] };
  verifyInclusion(
    entry,
    checkpoint.size,
    hashLeaf(entries[0]!.data),
    atCheckpoint.hashes.map((h) => decodeBase64(h)!),
    checkpoint.rootHash,
  );
});
