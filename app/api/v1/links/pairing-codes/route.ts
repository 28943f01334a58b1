import { scopedPrincipal } from "@/lib/auth";
import { config } from "@/lib/config/env.mjs";
import { json, route } from "@/lib/http/route";
import { createPairingCode } from "@/lib/links";

export const POST = route({
  auth: scopedPrincipal("links"),
  handler: async ({ principal, requestId }) => {
    const { code, expiresAt } = await createPairingCode(principal.userId);
    const command = `npx openvibe-link pair ${code} --server ${config().APP_URL}`;
    return json({ code, expires_at: expiresAt, command }, 201, requestId);
  },
});
