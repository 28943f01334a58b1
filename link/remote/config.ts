// Where a Link keeps its identity and state: a folder (OPENVIBE_LINK_HOME, else
// ~/.config/openvibe-link) with the private key (0600, never sent anywhere), link.json (server,
// Link id, the runner switch and its count, pool offer) and results/ (each job's result until the
// server has acknowledged it). link.json is the machine owner's switch: `skills on|off` writes it,
// `run` reads it before every claim and never turns it on.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { z } from "zod";
import { linkIdSchema, runnerSchema } from "../../lib/protocol";
import { LinkError } from "../errors";

const linkStateSchema = z.object({
  server: z.url(),
  link_id: linkIdSchema.nullable(),
  public_key: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  name: z.string().min(1).max(64),
  runner: runnerSchema,
  /** How many times the owner switched the runner here; the server ignores older reports. */
  runner_epoch: z.number().int().min(0).default(0),
  pool: z.boolean(),
});
export type LinkState = z.output<typeof linkStateSchema>;

export function linkHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.OPENVIBE_LINK_HOME || path.join(env.XDG_CONFIG_HOME || path.join(homedir(), ".config"), "openvibe-link");
}

const keyPath = (home: string) => path.join(home, "link.key");
export const statePath = (home: string) => path.join(home, "link.json");
export const resultsDir = (home: string) => path.join(home, "results");

/** Writes a file whole or not at all (a crash leaves the old one). */
export function writeAtomic(file: string, text: string) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, file);
}

export function saveIdentity(home: string, privateKeyPem: string, state: LinkState) {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  chmodSync(home, 0o700);
  writeFileSync(keyPath(home), privateKeyPem, { mode: 0o600 });
  chmodSync(keyPath(home), 0o600);
  saveState(home, state);
}

export function saveState(home: string, state: LinkState) {
  writeAtomic(statePath(home), `${JSON.stringify(state, null, 2)}\n`);
}

const notPaired = () =>
  new LinkError("link.not_paired", "This machine is not paired yet: run `openvibe-link pair CODE` with a code from the dashboard's Links page.");

/** The state as it is on disk right now. */
export function readState(home: string): LinkState {
  if (!existsSync(statePath(home))) throw notPaired();
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(statePath(home), "utf8"));
  } catch {
    throw new LinkError("link.state_invalid", `${statePath(home)} is not JSON: pair this machine again.`);
  }
  const parsed = linkStateSchema.safeParse(raw);
  if (!parsed.success) throw new LinkError("link.state_invalid", `${statePath(home)} is not a Link's state: pair this machine again.`);
  return parsed.data;
}

export function loadIdentity(home: string): { state: LinkState & { link_id: string }; privateKeyPem: string } {
  if (!existsSync(keyPath(home))) throw notPaired();
  const state = readState(home);
  if (!state.link_id) throw new LinkError("link.not_paired", "Pairing did not finish: run `openvibe-link pair CODE` again.");
  return { state: { ...state, link_id: state.link_id }, privateKeyPem: readFileSync(keyPath(home), "utf8") };
}

/** Changes some fields of the state as it is on disk now (never from a copy read earlier). */
export function updateState(home: string, change: (state: LinkState) => LinkState): LinkState {
  const next = change(readState(home));
  saveState(home, next);
  return next;
}
