// Adding money to a Balance through a payment provider. The provider sits behind one small
// interface, so the demo provider used here can be swapped for a real one (a card processor)
// without touching the ledger or the routes. A top-up is recorded only after the provider confirms
// the payment, under the payment's id, so a retried request can never add twice.
import "server-only";
import { createHash } from "node:crypto";
import { db } from "../db";
import { AppError } from "../errors";
import { balanceOf, recordTopUp } from "./ledger";
import { formatMicros, MICROS_PER_UNIT } from "./rates";

export const MIN_TOP_UP_MICROS = 1n * MICROS_PER_UNIT;
export const MAX_TOP_UP_MICROS = 1_000n * MICROS_PER_UNIT;
const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{8,128}$/;

export type PaymentStatus = "pending" | "succeeded" | "failed";

export type Payment = {
  /** Stable for one (person, idempotency key): a retried request finds the same payment. */
  id: string;
  provider: string;
  userId: string;
  amountMicros: bigint;
  status: PaymentStatus;
};

export interface PaymentProvider {
  readonly name: string;
  /** Starts (or, for the same idempotency key, finds again) a payment of `amountMicros`. */
  createPayment(p: { userId: string; amountMicros: bigint; idempotencyKey: string }): Promise<Payment>;
  /** Asks the provider whether the money arrived; only a `succeeded` payment becomes Balance. */
  confirm(payment: Payment): Promise<Payment>;
}

/**
 * A provider for demos and tests: every payment succeeds at once and no money moves. Its payment id
 * is derived from the person and the idempotency key, as a real provider's idempotent create is.
 */
export class DemoPaymentProvider implements PaymentProvider {
  readonly name = "demo";

  async createPayment(p: { userId: string; amountMicros: bigint; idempotencyKey: string }): Promise<Payment> {
    const digest = createHash("sha256").update(`${p.userId}\n${p.idempotencyKey}`).digest("hex").slice(0, 32);
    return {
      id: `demo_${digest}`,
      provider: this.name,
      userId: p.userId,
      amountMicros: p.amountMicros,
      status: "pending",
    };
  }

  async confirm(payment: Payment): Promise<Payment> {
    return { ...payment, status: "succeeded" };
  }
}

let provider: PaymentProvider = new DemoPaymentProvider();

/** The provider top-ups go through. Only the demo provider exists today. */
export function paymentProvider(): PaymentProvider {
  return provider;
}

/** Swaps the provider (a real processor at start-up, or a failing one in a test). */
export function setPaymentProvider(next: PaymentProvider): void {
  provider = next;
}

export function validateTopUp(amountMicros: bigint, idempotencyKey: string): void {
  if (amountMicros < MIN_TOP_UP_MICROS || amountMicros > MAX_TOP_UP_MICROS) {
    throw new AppError(
      "billing.top_up_invalid",
      `A top-up is between ${formatMicros(MIN_TOP_UP_MICROS)} and ${formatMicros(MAX_TOP_UP_MICROS)}.`,
      {
        details: [{ path: "/amount_micros", message: `must be ${MIN_TOP_UP_MICROS}-${MAX_TOP_UP_MICROS} micro-units` }],
      },
    );
  }
  if (!IDEMPOTENCY_KEY.test(idempotencyKey)) {
    throw new AppError("billing.top_up_invalid", "Send an idempotency key of 8-128 letters, digits or . _ : -.", {
      details: [{ path: "/idempotency_key", message: "must be 8-128 characters of A-Z a-z 0-9 . _ : -" }],
    });
  }
}

export type TopUpResult = {
  paymentId: string;
  /** False when this request repeated one already recorded (nothing was added). */
  created: boolean;
  amountMicros: bigint;
  balanceMicros: bigint;
};

/** Pays `amountMicros` through the provider and adds it to the person's Balance, once per key. */
export async function topUp(
  userId: string,
  p: { amountMicros: bigint; idempotencyKey: string },
  via: PaymentProvider = paymentProvider(),
): Promise<TopUpResult> {
  validateTopUp(p.amountMicros, p.idempotencyKey);
  const payment = await via.createPayment({ userId, amountMicros: p.amountMicros, idempotencyKey: p.idempotencyKey });
  const earlier = await db.ledgerEntry.findUnique({ where: { idempotencyKey: `topup:${payment.id}` } });
  if (earlier) return repeated(earlier, p.amountMicros, payment.id, userId);

  const confirmed = await via.confirm(payment);
  if (confirmed.status !== "succeeded") {
    throw new AppError(
      "billing.payment_failed",
      confirmed.status === "pending"
        ? "The payment has not gone through yet. Try again in a moment with the same request."
        : "The payment was declined. Nothing was added to your balance.",
    );
  }
  const recorded = await recordTopUp({
    userId,
    amountMicros: p.amountMicros,
    paymentId: payment.id,
    memo: `Top-up via ${via.name} payment ${payment.id}`,
  });
  if (!recorded.created) {
    // A concurrent copy of this request won the race; answer as that request did.
    const winner = await db.ledgerEntry.findUniqueOrThrow({ where: { idempotencyKey: `topup:${payment.id}` } });
    return repeated(winner, p.amountMicros, payment.id, userId);
  }
  return { paymentId: payment.id, created: true, amountMicros: p.amountMicros, balanceMicros: recorded.balanceMicros };
}

async function repeated(
  entry: { amountMicros: bigint; userId: string },
  amountMicros: bigint,
  paymentId: string,
  userId: string,
): Promise<TopUpResult> {
  if (entry.userId !== userId || entry.amountMicros !== amountMicros) {
    throw new AppError(
      "billing.idempotency_conflict",
      "This idempotency key was already used for a different top-up. Use a new key for a new top-up.",
    );
  }
  return { paymentId, created: false, amountMicros, balanceMicros: await balanceOf(userId) };
}
