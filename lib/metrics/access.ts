// Who may read /api/metrics: with METRICS_TOKEN set, whoever sends it as a bearer token (and no
// one else); without it, only a loopback socket (never judged by X-Forwarded-For, which the
// client writes).
import { createHash, timingSafeEqual } from "node:crypto";
import { AppError } from "../errors";
import { isLoopbackAddress } from "./request-socket";

const digest = (text: string) => createHash("sha256").update(text).digest();

export function checkMetricsAccess(
  req: Request,
  options: { token: string | undefined; socketAddress: string | undefined },
): void {
  if (options.token) {
    const sent = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get("authorization") ?? "")?.[1];
    // Compared as digests: equal length, constant time, whatever was sent.
    if (!sent || !timingSafeEqual(digest(sent), digest(options.token))) {
      throw new AppError("metrics.token_invalid", "Send the metrics token as `Authorization: Bearer <METRICS_TOKEN>`.");
    }
    return;
  }
  if (!isLoopbackAddress(options.socketAddress)) {
    throw new AppError(
      "metrics.local_only",
      "Metrics are served only to this machine (a loopback address). Set METRICS_TOKEN to scrape from elsewhere.",
    );
  }
}
