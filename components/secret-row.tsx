"use client";
// A secret or command shown once: read-only, selected on focus, with a Copy button (give SecretRow a
// `key` of the value, so a new secret starts with "Copy" again), and the panel a new secret comes in.
import { useRef, type ReactNode } from "react";
import { useCopy } from "./use-copy";

export function SecretRow({ id, label, value }: { id: string; label: string; value: string }) {
  const input = useRef<HTMLInputElement>(null);
  const { copied, copy } = useCopy(input);
  return (
    <div className="secret-row">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input id={id} ref={input} className="mono" readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
      <button type="button" className="button" onClick={() => copy(value)}>
        {copied ? "Copied" : "Copy"}
      </button>
    </div>
  );
}

/**
 * A new secret's panel, announced: what to do with it (`intro`), its row, anything more about it,
 * and "I have saved it", which closes the panel (`onSaved`).
 */
export function SecretShownOnce(props: {
  intro: ReactNode;
  id: string;
  label: string;
  value: string;
  onSaved: () => void;
  children?: ReactNode;
}) {
  return (
    <div className="secret-panel" role="status" aria-live="polite">
      <p>{props.intro}</p>
      <SecretRow key={props.value} id={props.id} label={props.label} value={props.value} />
      {props.children}
      <p>
        <button type="button" className="button button-quiet" onClick={props.onSaved}>
          I have saved it
        </button>
      </p>
    </div>
  );
}
