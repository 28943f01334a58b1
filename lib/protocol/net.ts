// A tool's network policy (./net-policies) and its schema.
import { z } from "zod";
import { NET_POLICIES } from "./net-policies";

export * from "./net-policies";
export const netPolicySchema = z.enum(NET_POLICIES);
