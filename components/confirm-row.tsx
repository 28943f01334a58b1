// The second step of a destructive action (revoke, uninstall): the question, "Yes, …" and Cancel,
// as one labelled group in place of the button that asked.
export function ConfirmRow(props: {
  /** e.g. `Confirm revoking ${name}` */
  label: string;
  question: string;
  /** e.g. "Yes, revoke" */
  confirm: string;
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** The way out; "Cancel" unless given */
  cancel?: string;
  className?: string;
}) {
  return (
    <div className={props.className} role="group" aria-label={props.label}>
      <span>{props.question}</span>
      <button type="button" className="button button-danger" disabled={props.pending} onClick={props.onConfirm}>
        {props.confirm}
      </button>
      <button type="button" className="button button-quiet" onClick={props.onCancel}>
        {props.cancel ?? "Cancel"}
      </button>
    </div>
  );
}

/** The first step: the button that asks, named for what it does to whom (`Revoke ${name}`). */
export function AskButton({ action, name, onClick }: { action: string; name: string; onClick: () => void }) {
  return (
    <button type="button" className="button" onClick={onClick} aria-label={`${action} ${name}`}>
      {action}
    </button>
  );
}
