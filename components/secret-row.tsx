"use client";
// A secret or command shown once: read-only, selected on focus, with a Copy button. Give it a
// `key` of the value, so a new secret starts with "Copy" again.
import { useRef } from "react";
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
