// Ids for the rows the lifecycle writes itself in SQL. ulid() asks the system for one random byte
// per character; these draw them from a pooled buffer refilled from the same source.
import { randomFillSync } from "node:crypto";
import { ulid } from "ulid";

const pool = Buffer.alloc(4096);
let at = pool.length;

function pooledRandom(): number {
  if (at >= pool.length) {
    randomFillSync(pool);
    at = 0;
  }
  return pool[at++]! / 256;
}

export const newUlid = () => ulid(undefined, pooledRandom);
/** A row id of the kind Prisma's cuid() makes: lowercase, starting with "c". */
export const newRowId = () => `c${newUlid().toLowerCase()}`;
export const newJobId = () => `job_${newUlid().toLowerCase()}`;
export const newMediaId = () => `med_${newUlid()}`;
