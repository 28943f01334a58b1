// The email and password fields of the sign-in and sign-up forms.
import { Field } from "./field";

export function EmailField({ id }: { id: string }) {
  return (
    <Field id={id} label="Email">
      {(control) => <input {...control} name="email" type="email" autoComplete="email" required maxLength={254} />}
    </Field>
  );
}

/** `hint` (sign-up): the rule for a new password, under the field and described by it. */
export function PasswordField(props: {
  id: string;
  autoComplete: "current-password" | "new-password";
  minLength?: number;
  hint?: string;
}) {
  return (
    <Field id={props.id} label="Password" hint={props.hint}>
      {(control) => (
        <input
          {...control}
          name="password"
          type="password"
          autoComplete={props.autoComplete}
          required
          minLength={props.minLength}
          maxLength={200}
        />
      )}
    </Field>
  );
}
