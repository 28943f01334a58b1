// "Pair a Link" followed as written: the code from the Links page's button the guide names, each
// command in a shell with the code and the server's URL filled in; the last one keeps running.
import type { Page } from "playwright/test";
import { pairingCode } from "./dashboard";
import { fill, GUIDE_SERVER, quoted, readGuide } from "./guide-page";
import { url } from "./people";
import type { Shell } from "./shell";

export async function followPairGuide(page: Page, sh: Shell) {
  const [getCode, pair, runnerOn, start] = await readGuide(page, "pair");
  const code = await pairingCode(page, quoted(getCode!.text));
  const base = url("").replace(/\/$/, "");
  const results = [];
  for (const step of [pair!, runnerOn!]) {
    const command = step.command.includes("CODE")
      ? fill(step.command, { CODE: code, [GUIDE_SERVER]: base })
      : step.command;
    results.push({ step: step.title, ...(await sh.run(command)) });
  }
  const link = sh.start(start!.command);
  return { results, link };
}
