import NextAuth from "next-auth";
import { authOptions, credentialsFormError } from "@/lib/auth";
import { json } from "@/lib/http/route";
import { errorBody } from "@/lib/errors";

type Ctx = { params: Promise<{ nextauth: string[] }> };

// Options are built on first request, so a build without runtime secrets still succeeds.
function handler(req: Request, ctx: Ctx) {
  return NextAuth(authOptions())(req, ctx);
}

/** Malformed sign-in input gets the app's JSON error shape (4xx) before next-auth sees it. */
async function post(req: Request, ctx: Ctx) {
  const { nextauth } = await ctx.params;
  if (nextauth.join("/") === "callback/credentials") {
    const problem = await credentialsFormError(req.clone());
    if (problem) return json(errorBody(problem), problem.status);
  }
  return handler(req, ctx);
}

export { handler as GET, post as POST };
