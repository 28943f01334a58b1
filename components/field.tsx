// One form field: its label, its control, and an optional hint and error under it, with the
// control's id, aria-describedby and aria-invalid wired to them so screen readers read them out.
import type { ReactNode } from "react";

/** What the control must carry; spread it onto the input or select. */
export type FieldControl = { id: string; "aria-describedby"?: string; "aria-invalid"?: true };

export function Field(props: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  /** Ids of text outside the field that also describes the control (a hint below the form's buttons). */
  describedBy?: string;
  /** The wrapper's class, where a form lays its fields out its own way; the global `field` else. */
  className?: string;
  children: (control: FieldControl) => ReactNode;
}) {
  const hintId = props.hint ? `${props.id}-hint` : undefined;
  const errorId = props.error ? `${props.id}-error` : undefined;
  const describedBy = [hintId, errorId, props.describedBy].filter(Boolean).join(" ") || undefined;
  return (
    <div className={props.className ?? "field"}>
      <label htmlFor={props.id}>{props.label}</label>
      {props.children({
        id: props.id,
        "aria-describedby": describedBy,
        ...(errorId ? { "aria-invalid": true as const } : {}),
      })}
      {props.hint ? (
        <p id={hintId} className="hint">
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p id={errorId} className="field-error">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}
