import { sessionPrincipal } from "@/lib/auth";
import { topUp } from "@/lib/billing/payments";
import { formatMicros } from "@/lib/billing/rates";
import { json, route } from "@/lib/http/route";
import { topUpBody } from "@/lib/openapi/schemas";

/**
 * Adds money through the payment provider: `{ amount_micros: "5000000", idempotency_key }`.
 * 201 with the new balance; the same key again answers 200 and adds nothing.
 */
export const POST = route({
  auth: sessionPrincipal,
  body: topUpBody,
  idempotent: true,
  handler: async ({ principal, body, requestId }) => {
    const result = await topUp(principal.userId, {
      amountMicros: BigInt(body.amount_micros),
      idempotencyKey: body.idempotency_key,
    });
    return json(
      {
        payment_id: result.paymentId,
        created: result.created,
        amount_micros: result.amountMicros.toString(),
        balance_micros: result.balanceMicros.toString(),
        balance: formatMicros(result.balanceMicros),
      },
      result.created ? 201 : 200,
      requestId,
    );
  },
});
