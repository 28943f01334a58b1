// Where a Link keeps its identity: a folder (OPENVIBE_LINK_HOME, else ~/.config/openvibe-link) with
// the private key (0600, never sent anywhere) and link.json (server, Link id, runner on/off, pool).
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { LinkError } from "../errors";

export type LinkState = {
  server: string;
  link_id: string | null;
  public_key: string;
  name: string;
  runner: "on" | "off";
  pool: boolean;
};

export function linkHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.OPENVIBE_LINK_HOME || path.join(env.XDG_CONFIG_HOME || path.join(homedir(), ".config"), "openvibe-link");
}

const keyPath = (home: string) => path.join(home, "link.key");
const statePath = (home: string) => path.join(home, "link.json");

export function saveIdentity(home: string, privateKeyPem: string, state: LinkState) {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  chmodSync(home, 0o700);
  writeFileSync(keyPath(home), privateKeyPem, { mode: 0o600 });
  chmodSync(keyPath(home), 0o600);
  saveState(home, state);
}

export function saveState(home: string, state: LinkState) {
  const tmp = `${statePath(home)}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, statePath(home));
}

export function loadIdentity(home: string): { state: LinkState; privateKeyPem: string } {
  if (!existsSync(statePath(home)) || !existsSync(keyPath(home))) {
    throw new LinkError("link.not_paired", "This machine is not paired yet: run `openvibe-link pair CODE` with a code from the dashboard's Links page.");
  }
  const state = JSON.parse(readFileSync(statePath(home), "utf8")) as LinkState;
  if (!state.link_id) throw new LinkError("link.not_paired", "Pairing did not finish: run `openvibe-link pair CODE` again.");
  return { state, privateKeyPem: readFileSync(keyPath(home), "utf8") };
}
