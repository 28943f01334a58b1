import { createUser, signUpSchema } from "@/lib/auth";
import { json, route } from "@/lib/http/route";

// Creates the account only; the page signs in afterwards through next-auth, and API tokens are
// made on purpose from the dashboard.
export const POST = route({
  rateLimit: "signUp",
  body: signUpSchema,
  handler: async ({ body, requestId }) => {
    const user = await createUser(body);
    return json({ user: { id: user.id, email: user.email, name: user.name, handle: user.handle } }, 201, requestId);
  },
});
