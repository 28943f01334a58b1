import { scopedPrincipal } from "@/lib/auth";
import { json, route, z } from "@/lib/http/route";
import { installSkill, listInstalls } from "@/lib/installs";

export const GET = route({
  auth: scopedPrincipal("installs"),
  handler: async ({ principal }) => ({ installs: await listInstalls(principal.userId) }),
});

/** Installs a version, or moves the person's install of that skill to it (upgrade or downgrade). */
export const POST = route({
  auth: scopedPrincipal("installs"),
  body: z.object({
    slug: z.string().min(1).max(64),
    version: z.string().min(1).max(128),
    findings_ack: z
      .string()
      .regex(/^sha256:[0-9a-f]{64}$/, "findings_ack is the listing's findings hash, sha256:<64 hex>.")
      .nullish(),
  }),
  handler: async ({ principal, body, requestId }) => {
    const r = await installSkill({
      userId: principal.userId,
      slug: body.slug,
      version: body.version,
      findingsAck: body.findings_ack ?? null,
    });
    return json(
      { install: r.install, outcome: r.outcome, previous: r.previous, grants_revoked: r.grantsRevoked },
      r.outcome === "installed" ? 201 : 200,
      requestId,
    );
  },
});
