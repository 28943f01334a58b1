import { describe, expect, it } from "vitest";
import { verifierMatches, s256 } from "./pkce";
import { matchRedirectUri, redirectUriProblem } from "./redirect-uri";

describe("redirect URIs", () => {
  it("accept https, loopback http and an app's own scheme", () => {
    for (const ok of ["https://claude.ai/api/mcp/auth_callback", "http://127.0.0.1:33418/", "http://localhost:6274/oauth/callback", "cursor://anysphere.cursor-retrieval/oauth/callback", "com.example.app:/cb"]) {
      expect(redirectUriProblem(ok), ok).toBeNull();
    }
  });

  it("refuse http elsewhere, fragments, credentials and script schemes", () => {
    expect(redirectUriProblem("http://evil.example/cb")).toMatch(/only on this machine/);
    expect(redirectUriProblem("https://a.example/cb#x")).toMatch(/fragment/);
    expect(redirectUriProblem("https://u:p@a.example/cb")).toMatch(/user name/);
    expect(redirectUriProblem("javascript:alert(1)")).toMatch(/scheme/);
    expect(redirectUriProblem("data:text/html,x")).toMatch(/scheme/);
    expect(redirectUriProblem("not a url")).toMatch(/absolute/);
  });

  it("match exactly, or a loopback URI on any port", () => {
    const registered = ["https://app.example/cb", "http://127.0.0.1/callback"];
    expect(matchRedirectUri("https://app.example/cb", registered)).toBe("https://app.example/cb");
    expect(matchRedirectUri("https://app.example/cb/", registered)).toBeNull();
    expect(matchRedirectUri("http://127.0.0.1:51234/callback", registered)).toBe("http://127.0.0.1:51234/callback");
    expect(matchRedirectUri("http://127.0.0.1:51234/other", registered)).toBeNull();
    expect(matchRedirectUri("http://localhost:51234/callback", registered)).toBeNull();
  });
});

describe("PKCE S256", () => {
  it("matches the RFC 7636 example and nothing else", () => {
    const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    expect(s256(verifier)).toBe("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    expect(verifierMatches(verifier, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")).toBe(true);
    expect(verifierMatches(verifier.replace("d", "e"), "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")).toBe(false);
    expect(verifierMatches("short", s256("short"))).toBe(false);
  });
});
