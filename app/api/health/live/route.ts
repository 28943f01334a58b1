import { route } from "@/lib/http/route";

/** Liveness: the process answers HTTP. It checks no store, so a database outage never restarts web copies. */
export const GET = route({ handler: async () => ({ status: "live" }) });
