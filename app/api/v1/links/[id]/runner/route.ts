import { scopedPrincipal } from "@/lib/auth";
import { AppError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { turnRunnerOff } from "@/lib/links";
import { runnerBody } from "@/lib/openapi/schemas";

/** The dashboard turns a Link's skill runner off. Never on: that is the machine owner's `openvibe-link skills on`. */
export const POST = route({
  auth: scopedPrincipal("links"),
  body: runnerBody,
  handler: async ({ principal, params, body }) => {
    if (body.runner === "on") {
      throw new AppError(
        "link.runner_on_remotely",
        "A Link's skill runner is turned on only on that machine: run `openvibe-link skills on` there.",
      );
    }
    return turnRunnerOff(principal.userId, params.id ?? "");
  },
});
