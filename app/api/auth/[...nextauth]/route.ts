import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth";

type Ctx = { params: Promise<{ nextauth: string[] }> };

// Options are built on first request, so a build without runtime secrets still succeeds.
function handler(req: Request, ctx: Ctx) {
  return NextAuth(authOptions())(req, ctx);
}

export { handler as GET, handler as POST };
