// The email and password fields of the sign-in and sign-up forms.
export function EmailField({ id }: { id: string }) {
  return (
    <div className="field">
      <label htmlFor={id}>Email</label>
      <input id={id} name="email" type="email" autoComplete="email" required maxLength={254} />
    </div>
  );
}

/** `hint` (sign-up): the rule for a new password, under the field and described by it. */
export function PasswordField(props: {
  id: string;
  autoComplete: "current-password" | "new-password";
  minLength?: number;
  hint?: string;
}) {
  const hintId = props.hint ? `${props.id}-hint` : undefined;
  return (
    <div className="field">
      <label htmlFor={props.id}>Password</label>
      <input
        id={props.id}
        name="password"
        type="password"
        autoComplete={props.autoComplete}
        required
        minLength={props.minLength}
        maxLength={200}
        aria-describedby={hintId}
      />
      {props.hint ? (
        <p id={hintId} className="hint">
          {props.hint}
        </p>
      ) : null}
    </div>
  );
}
