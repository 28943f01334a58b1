// Where `openvibe verify` keeps what it remembers per registry (lib/tlog/trust-store.ts):
// $OPENVIBE_CONFIG_DIR/logs.json (default $XDG_CONFIG_HOME/openvibe or ~/.config/openvibe).
import { homedir } from "node:os";
import path from "node:path";

export { TrustStore } from "../lib/tlog/trust-store";

export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.OPENVIBE_CONFIG_DIR) return path.resolve(env.OPENVIBE_CONFIG_DIR);
  return path.join(env.XDG_CONFIG_HOME || path.join(homedir(), ".config"), "openvibe");
}
