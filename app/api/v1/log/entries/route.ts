import { route } from "@/lib/http/route";
import { logEntries } from "@/lib/tlog";

/** `?start=&end=`: the entries [start, end), a bounded page at a time (`next` says where to go on). */
export const GET = route({ handler: async ({ req }) => logEntries(new URL(req.url).searchParams) });
