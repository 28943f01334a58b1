import Link from "next/link";
import { redirect } from "next/navigation";
import { getSession, safeNextPath } from "@/lib/auth";
import { SignUpForm } from "./page-client";

export const metadata = { title: "Sign up" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function SignUpPage({ searchParams }: { searchParams: SearchParams }) {
  const raw = (await searchParams).next;
  const next = safeNextPath(Array.isArray(raw) ? raw[0] : raw);
  if (await getSession()) redirect(next);
  return (
    <section className="panel narrow" aria-labelledby="signup-title">
      <h1 id="signup-title">Create your account</h1>
      <SignUpForm next={next} />
      <p className="muted">
        Already have an account? <Link href="/signin">Sign in</Link>
      </p>
    </section>
  );
}
