// One form field: its label, its control, and an optional hint under it, with the control's id and
// aria-describedby wired to it so screen readers read it out.
import type { ReactNode } from "react";

/** What the control must carry; spread it onto the input or select. */
export type FieldControl = { id: string; "aria-describedby"?: string };

export function Field(props: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  /** Ids of text outside the field that also describes the control (a hint below the form's buttons). */
  describedBy?: string;
  /** The wrapper's class, where a form lays its fields out its own way; the global `field` else. */
  className?: string;
  children: (control: FieldControl) => ReactNode;
}) {
  const hintId = props.hint ? `${props.id}-hint` : undefined;
  const describedBy = [hintId, props.describedBy].filter(Boolean).join(" ") || undefined;
  return (
    <div className={props.className ?? "field"}>
      <label htmlFor={props.id}>{props.label}</label>
      {props.children({ id: props.id, "aria-describedby": describedBy })}
      {props.hint ? (
        <p id={hintId} className="hint">
          {props.hint}
        </p>
      ) : null}
    </div>
  );
}
