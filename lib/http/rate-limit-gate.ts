// One request's way through the rate limits, as the route() wrapper drives it: before anything,
// an IP that failed to authenticate too often waits; an anonymous request counts against its IP;
// an authenticated one against its principal (per person or API token, per agent, per Link),
// failed credentials against the IP. A route may add its own named limit (sign-up, publish).
// The tightest state seen goes out as RateLimit-* headers on the response, 429 or not.
import type { RateLimitName } from "../config/rate-limits";
import { AppError } from "../errors";
import { clientIp } from "./client-ip";
import { log } from "../log";
import { assertNotSpent, consume, RateLimitedError, rateKey, refund, rateLimitHeaders, type RateState } from "./rate-limit";

/** Limits a route may add on top of the per-caller one: counted per person, or per IP when anonymous. */
export type RouteRateLimit = Extract<RateLimitName, "signUp" | "publish" | "signIn">;

// 401s that mean "these credentials are wrong", not "you sent none" (a signed-out tab polling).
const isFailedCredential = (err: unknown) =>
  err instanceof AppError && err.status === 401 && err.code !== "auth.required";

/** Which bucket a principal counts against, from the shape every lib/ verifier returns. */
export function principalBucket(principal: unknown): { name: RateLimitName; id: string; person: string | null } {
  const p = (principal ?? {}) as Record<string, unknown>;
  const str = (k: string) => (typeof p[k] === "string" ? (p[k] as string) : null);
  const person = str("userId");
  if (str("linkId")) return { name: "link", id: rateKey("link", str("linkId")!), person };
  if (str("agentId")) return { name: "agent", id: rateKey("agent", str("agentId")!), person };
  if (str("tokenId")) return { name: "person", id: rateKey("token", str("tokenId")!), person };
  if (person) return { name: "person", id: rateKey("user", person), person };
  return { name: "anonymous", id: "", person: null };
}

export class RateLimitGate {
  private tightest: RateState | null = null;
  private limitedHeaders: Record<string, string> | null = null;
  private readonly ipKey: string;
  /** The principal's bucket this request was counted against. */
  private counted: { name: RateLimitName; id: string } | null = null;

  constructor(
    req: Request,
    private readonly extra?: RouteRateLimit,
  ) {
    this.ipKey = rateKey("ip", clientIp(req.headers));
  }

  /** First thing for every request; counts it now when it carries no credentials. */
  async before(authenticates: boolean): Promise<void> {
    await this.guard(() => assertNotSpent("authFailure", this.ipKey));
    if (authenticates) return;
    await this.count("anonymous", this.ipKey);
    if (this.extra) await this.count(this.extra, this.ipKey);
  }

  /** Runs the route's verifier and counts the request against whoever it authenticated. */
  async authenticate<P>(verify: () => Promise<P>): Promise<P> {
    let principal: P;
    try {
      principal = await verify();
    } catch (err) {
      if (isFailedCredential(err)) await this.count("authFailure", this.ipKey);
      throw err;
    }
    const bucket = principalBucket(principal);
    await this.count(bucket.name, bucket.id || this.ipKey);
    this.counted = { name: bucket.name, id: bucket.id || this.ipKey };
    if (this.extra) await this.count(this.extra, bucket.person ? rateKey("user", bucket.person) : this.ipKey);
    return principal;
  }

  /** Gives back the point this request cost its principal (in the background: the answer does not wait). */
  refund(): void {
    const counted = this.counted;
    this.counted = null;
    if (!counted) return;
    refund(counted.name, counted.id).catch((err: unknown) => log.warn("rate limit: a refund failed", { err }));
  }

  /** The response with this request's rate-limit headers. */
  decorate(response: Response): Response {
    const headers = this.limitedHeaders ?? (this.tightest ? rateLimitHeaders(this.tightest, false) : null);
    if (!headers) return response;
    try {
      for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
      return response;
    } catch {
      // Some responses (redirects, fetched ones) have immutable headers: copy them.
      const copy = new Response(response.body, response);
      for (const [k, v] of Object.entries(headers)) copy.headers.set(k, v);
      return copy;
    }
  }

  private async count(name: RateLimitName, id: string): Promise<void> {
    const s = await this.guard(() => consume(name, id));
    if (!this.tightest || s.remaining / s.limit < this.tightest.remaining / this.tightest.limit) this.tightest = s;
  }

  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof RateLimitedError) this.limitedHeaders = err.headers;
      throw err;
    }
  }
}
