import { sessionPrincipal } from "@/lib/auth";
import { route } from "@/lib/http/route";
import { decideConsent } from "@/lib/oauth";

// The consent page's form: the signed-in person allows (as a chosen or new agent) or denies.
export const POST = route({ auth: sessionPrincipal, handler: ({ principal, req }) => decideConsent(principal.userId, req) });
