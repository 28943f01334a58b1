// The admin API's principal: the signed-in operator; to anyone else the route does not exist.
import "server-only";
import { sessionPrincipal } from "../auth/session";
import { AppError } from "../errors";
import { requireOperator } from "./operators";

/** For admin API routes: the signed-in operator; anyone else, signed in or not, gets a 404. */
export async function operatorPrincipal(req: Request) {
  let principal;
  try {
    principal = await sessionPrincipal(req);
  } catch {
    throw new AppError("not_found", "That page was not found.");
  }
  await requireOperator(principal.userId);
  return principal;
}
