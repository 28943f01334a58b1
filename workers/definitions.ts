// Every queue the worker host serves, one file per queue beside this one (e.g. workers/scan.ts).
import type { QueueDefinition } from "./registry";

export const definitions: QueueDefinition[] = [];
