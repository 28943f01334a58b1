"use client";

import { signIn } from "next-auth/react";
import { useState } from "react";
import { readApiError } from "@/components/api-error";
import { EmailField, PasswordField } from "@/components/account-fields";
import { Field } from "@/components/field";
import { FormError } from "@/components/form-error";

export function SignUpForm({ next }: { next: string }) {
  const [error, setError] = useState<{ message: string; details: string[] } | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "");
    const password = String(form.get("password") ?? "");
    setPending(true);
    setError(null);
    try {
      const res = await fetch("/api/v1/auth/signup", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, name: String(form.get("name") ?? ""), password }),
      });
      if (res.status !== 201) {
        const e = await readApiError(res);
        setError({ message: e.message, details: e.details });
        setPending(false);
        return;
      }
      const result = await signIn("credentials", { email, password, redirect: false });
      window.location.assign(result?.ok && !result.error ? next : "/signin");
    } catch {
      setError({ message: "We could not reach the server. Check your connection and try again.", details: [] });
      setPending(false);
    }
  }

  return (
    <form className="form" onSubmit={onSubmit}>
      <Field id="signup-name" label="Name">
        {(control) => <input {...control} name="name" type="text" autoComplete="name" required maxLength={100} />}
      </Field>
      <EmailField id="signup-email" />
      <PasswordField
        id="signup-password"
        autoComplete="new-password"
        minLength={10}
        hint="At least 10 characters. A few unrelated words make a strong one."
      />
      <FormError message={error?.message ?? null} details={error?.details} />
      <button type="submit" className="button button-primary" disabled={pending}>
        {pending ? "Creating your account…" : "Create account"}
      </button>
    </form>
  );
}
