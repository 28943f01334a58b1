"use client";

import { signIn } from "next-auth/react";
import { useState } from "react";
import { EmailField, PasswordField } from "@/components/account-fields";
import { FormError } from "@/components/form-error";

// next-auth hands the sign-in page only the error code lib/auth threw; these are its words.
const MESSAGES: Record<string, string> = {
  "auth.invalid_credentials": "That email and password do not match an account.",
  CredentialsSignin: "That email and password do not match an account.",
  "auth.rate_limited": "Too many failed sign-ins for this email. Wait 15 minutes and try again.",
  "rate.limited": "Too many sign-in attempts from your network. Wait a few minutes and try again.",
  "auth.account_not_linked": "An account with this email already exists: sign in with your email and password instead.",
  "auth.forbidden": "Your GitHub account has no email we can use: make one public on GitHub, or sign up with email.",
  OAuthSignin: "GitHub sign-in could not start. Try again in a moment.",
  OAuthCallback: "GitHub sign-in did not complete. Try again in a moment.",
  AccessDenied: "Sign-in was refused.",
};

export function signInMessage(code: string): string {
  return MESSAGES[code] ?? "Sign-in failed. Try again; if it keeps failing, tell us what you did and when.";
}

export function SignInForm({
  next,
  initialError,
  githubEnabled,
}: {
  next: string;
  initialError: string | null;
  githubEnabled: boolean;
}) {
  const [error, setError] = useState<string | null>(initialError ? signInMessage(initialError) : null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    try {
      const result = await signIn("credentials", {
        email: String(form.get("email") ?? ""),
        password: String(form.get("password") ?? ""),
        redirect: false,
      });
      if (!result || result.error || !result.ok) {
        setError(signInMessage(result?.error ?? "unknown"));
        setPending(false);
        return;
      }
      // A full load so the header and every server component see the new session.
      window.location.assign(next);
    } catch {
      setError("We could not reach the server. Check your connection and try again.");
      setPending(false);
    }
  }

  return (
    <>
      <form className="form" onSubmit={onSubmit}>
        <EmailField id="signin-email" />
        <PasswordField id="signin-password" autoComplete="current-password" />
        <FormError message={error} />
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? "Signing in…" : "Sign in"}
        </button>
      </form>
      {githubEnabled ? (
        <p>
          <button type="button" className="button" onClick={() => void signIn("github", { callbackUrl: next })}>
            Sign in with GitHub
          </button>
        </p>
      ) : null}
    </>
  );
}
