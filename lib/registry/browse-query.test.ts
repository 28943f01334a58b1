import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./browse-cursor";
import { browseHref, DEFAULT_QUERY, parseBrowseQuery } from "./browse-query";

describe("parseBrowseQuery", () => {
  it("gives the defaults for an empty URL and treats empty values as no filter", () => {
    expect(parseBrowseQuery({})).toEqual(DEFAULT_QUERY);
    expect(parseBrowseQuery({ q: "", runs: "", net: "", trust: "", page: "" })).toEqual(DEFAULT_QUERY);
  });

  it("reads every option, trims and squeezes the words, and takes the first of repeated values", () => {
    expect(
      parseBrowseQuery(new URLSearchParams("q=%20csv%20%20stats%20&runs=sandbox&net=none&status=failed&trust=first_party&sort=newest&page=3&q=ignored")),
    ).toEqual({ q: "csv stats", runs: "sandbox", net: "none", status: "failed", trust: "first_party", sort: "newest", page: 3, after: null });
    expect(parseBrowseQuery({ q: ["first", "second"] }).q).toBe("first");
  });

  it("refuses what it cannot read with one code and a message per parameter", () => {
    for (const bad of [{ page: "0" }, { page: "1.5" }, { page: "501" }, { page: "x" }, { sort: "random" }, { net: "some" }, { q: "x".repeat(101) }, { after: "not-a-cursor" }, { after: "x".repeat(401) }]) {
      expect(() => parseBrowseQuery(bad), JSON.stringify(bad)).toThrow(expect.objectContaining({ code: "search.invalid_query", status: 422 }));
    }
  });
});

describe("browseHref", () => {
  it("leaves defaults out and round-trips through parseBrowseQuery", () => {
    expect(browseHref(DEFAULT_QUERY)).toBe("/");
    const q = parseBrowseQuery({ q: "a b", net: "public", sort: "installs" });
    const href = browseHref(q, { page: 2 });
    expect(href).toBe("/?q=a+b&net=public&sort=installs&page=2");
    expect(parseBrowseQuery(new URLSearchParams(href.slice(2)))).toEqual({ ...q, page: 2 });
  });
});

describe("keyset cursors", () => {
  const cursor = { tier: 3, installs: 41, publishedAt: Date.UTC(2026, 11, 1, 10, 30, 0, 123), slug: "csv-tools" };

  it("round-trip through a URL and through browseHref, which drops them on any other link", () => {
    const text = encodeCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(text)).toEqual(cursor);
    const q = parseBrowseQuery({ q: "csv", page: "2", after: text });
    expect(q.after).toEqual(cursor);
    expect(browseHref(q)).toBe("/?q=csv&page=2");
    expect(browseHref(q, { page: 3, after: q.after })).toBe(`/?q=csv&page=3&after=${text}`);
  });

  it("refuse anything this site did not make", () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    for (const bad of [
      "",
      "%%%",
      b64("plain"),
      b64([3, 41, 5]),
      b64([6, 41, 5, "x"]),
      b64([1, -1, 5, "x"]),
      b64([1, 1.5, 5, "x"]),
      b64([1, 1, 5, ""]),
      b64([1, 1, 5, "x".repeat(201)]),
      Buffer.from("{not json").toString("base64url"),
    ]) {
      expect(decodeCursor(bad), bad).toBeNull();
    }
  });
});
