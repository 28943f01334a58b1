// A tool's network policy, spelled one way everywhere: documents, database rows, jobs, the Link.
import { z } from "zod";

export const NET_POLICIES = ["deny", "openvibe-only", "public"] as const;
export type NetPolicy = (typeof NET_POLICIES)[number];
export const NET_DEFAULT: NetPolicy = "deny";
export const netPolicySchema = z.enum(NET_POLICIES);

export function isNetPolicy(value: unknown): value is NetPolicy {
  return netPolicySchema.safeParse(value).success;
}
