import { scopedPrincipal } from "@/lib/auth";
import { json, route } from "@/lib/http/route";
import { installSkill, listInstalls } from "@/lib/installs";
import { installCreateBody } from "@/lib/openapi/schemas";

export const GET = route({
  auth: scopedPrincipal("installs"),
  handler: async ({ principal }) => ({ installs: await listInstalls(principal.userId) }),
});

/** Installs a version, or moves the person's install of that skill to it (upgrade or downgrade). */
export const POST = route({
  auth: scopedPrincipal("installs"),
  body: installCreateBody,
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
