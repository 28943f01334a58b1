import Link from "next/link";
import { redirect } from "next/navigation";
import { getSession, safeNextPath } from "@/lib/auth";
import { config } from "@/lib/config/env.mjs";
import { SignInForm } from "./page-client";

export const metadata = { title: "Sign in" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const next = safeNextPath(first(params.next));
  if (await getSession()) redirect(next);
  const { GITHUB_ID, GITHUB_SECRET } = config();
  return (
    <section className="panel narrow" aria-labelledby="signin-title">
      <h1 id="signin-title">Sign in</h1>
      <SignInForm next={next} initialError={first(params.error) ?? null} githubEnabled={Boolean(GITHUB_ID && GITHUB_SECRET)} />
      <p className="muted">
        New here? <Link href={`/signup${next === "/dashboard" ? "" : `?next=${encodeURIComponent(next)}`}`}>Create an account</Link>
      </p>
    </section>
  );
}
