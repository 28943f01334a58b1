// Every queue the worker host serves, one file per queue beside this one.
import { dispatchQueueDefinition } from "./dispatch";
import type { QueueDefinition } from "./registry";
import { scanQueueDefinition } from "./scan";
import { tlogQueueDefinition } from "./tlog";

export const definitions: QueueDefinition[] = [scanQueueDefinition, dispatchQueueDefinition, tlogQueueDefinition];
