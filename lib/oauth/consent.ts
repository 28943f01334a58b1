// The consent form's answer (POST /oauth/consent, a plain HTML form: no script needed). The request
// is checked again from the fields the form carried, with the form's own token; then the browser
// goes back to the app with a code, or with access_denied.
import "server-only";
import { AppError } from "../errors";
import {
  approveAuthorization,
  AUTHORIZATION_PARAMS,
  checkConsentToken,
  denyAuthorization,
  parseAuthorizationRequest,
} from "./authorize";
import { readBounded } from "./http";

export async function decideConsent(userId: string, req: Request): Promise<Response> {
  // The page's script asks for JSON and navigates itself (a Content-Security-Policy form-action
  // would stop a redirect to the app); without script, the browser follows a 303.
  const json = /\bapplication\/json\b/i.test(req.headers.get("accept") ?? "");
  const seeOther = (location: string) =>
    json
      ? new Response(JSON.stringify({ redirect_to: location }), {
          headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
        })
      : new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });
  if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers.get("content-type") ?? "")) {
    throw new AppError("request.unsupported_media_type", "Send the consent form as a form.");
  }
  const form = new URLSearchParams(await readBounded(req));
  const query = new URLSearchParams();
  for (const name of AUTHORIZATION_PARAMS) for (const v of form.getAll(name)) query.append(name, v);
  const back = `/oauth/authorize?${query}`;

  const parsed = await parseAuthorizationRequest(query);
  if (parsed.kind === "redirect") return seeOther(parsed.url);
  // The page explains what is wrong; a stale form is shown again with a fresh token.
  if (parsed.kind === "fatal" || !checkConsentToken(form.get("consent_token") ?? "", userId, parsed.request)) return seeOther(back);
  const r = parsed.request;
  if (form.get("decision") !== "allow") return seeOther(denyAuthorization(r));
  const agent = form.get("agent") ?? "";
  const choice =
    agent === "new"
      ? { newAgentName: (form.get("new_agent_name") ?? "").trim().slice(0, 64) || r.client.name.slice(0, 64) }
      : { agentId: agent.slice(0, 64) };
  const { redirectTo } = await approveAuthorization(userId, r, choice);
  return seeOther(redirectTo);
}
