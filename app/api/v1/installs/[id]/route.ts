import { scopedPrincipal } from "@/lib/auth";
import { route } from "@/lib/http/route";
import { getInstall, setInstallEnabled, uninstallSkill } from "@/lib/installs";
import { installPatchBody } from "@/lib/openapi/schemas";

export const GET = route({
  auth: scopedPrincipal("installs"),
  handler: async ({ principal, params }) => ({ install: await getInstall(principal.userId, params.id ?? "") }),
});

/** Enable or disable: a disabled skill's tools cannot be called, from the next call on. */
export const PATCH = route({
  auth: scopedPrincipal("installs"),
  body: installPatchBody,
  handler: async ({ principal, params, body }) => ({
    install: await setInstallEnabled({ userId: principal.userId, installId: params.id ?? "", enabled: body.enabled }),
  }),
});

export const DELETE = route({
  auth: scopedPrincipal("installs"),
  handler: async ({ principal, params }) => uninstallSkill({ userId: principal.userId, installId: params.id ?? "" }),
});
