// Cost before consent on an approval card: the most this call can cost, the balance now, and when
// the balance cannot cover what the run would hold, "Top up and approve" in place of "Approve".
import Link from "next/link";
import styles from "./approvals.module.css";

export type StepCost = { own_micros: string; pool_micros: string; hold_micros: string; covered: boolean };

/** Micro-units as a decimal string without BigInt maths in the browser bundle's hot path. */
export function money(micros: string | null): string {
  if (micros === null) return "—";
  const neg = micros.startsWith("-");
  const digits = (neg ? micros.slice(1) : micros).padStart(7, "0");
  const whole = digits.slice(0, -6).replace(/^0+(?=\d)/, "");
  const frac = digits.slice(-6).replace(/0+$/, "").padEnd(2, "0");
  return `${neg ? "-" : ""}${whole}.${frac}`;
}

/** Two more rows of the card's facts list. */
export function CostFacts({ cost, balanceMicros }: { cost: StepCost | undefined; balanceMicros: string }) {
  if (!cost) return null;
  return (
    <>
      <dt>Costs at most</dt>
      <dd data-testid="step-cost">
        {money(cost.own_micros)} on your own Link, {money(cost.pool_micros)} on the OpenVibe pool
      </dd>
      <dt>Your balance</dt>
      <dd data-testid="step-balance">{money(balanceMicros)}</dd>
    </>
  );
}

/** Said above the buttons when approving would fail for want of balance. */
export function Shortfall({ cost, balanceMicros }: { cost: StepCost; balanceMicros: string }) {
  return (
    <p className={styles.short} role="note">
      Your balance ({money(balanceMicros)}) cannot cover this run: it holds up to {money(cost.hold_micros)} while it
      runs and gives back what it does not use. Top up first; this step keeps waiting for you until it expires.
    </p>
  );
}

export function TopUpAndApprove({ stepId }: { stepId: string }) {
  return (
    <Link href={`/dashboard/balance?step=${encodeURIComponent(stepId)}`} className="button button-primary">
      Top up and approve
    </Link>
  );
}
