// A tool's network policy, spelled one way everywhere: documents, database rows, jobs, the Link.
// Without zod, so that the Link's `exec` loads no schema library (./net adds the schema).

export const NET_POLICIES = ["deny", "openvibe-only", "public"] as const;
export type NetPolicy = (typeof NET_POLICIES)[number];
export const NET_DEFAULT: NetPolicy = "deny";

export function isNetPolicy(value: unknown): value is NetPolicy {
  return NET_POLICIES.some((policy) => policy === value);
}
