import { describe, expect, it } from "vitest";
import { browseHref, DEFAULT_QUERY, parseBrowseQuery } from "./browse-query";

describe("parseBrowseQuery", () => {
  it("gives the defaults for an empty URL and treats empty values as no filter", () => {
    expect(parseBrowseQuery({})).toEqual(DEFAULT_QUERY);
    expect(parseBrowseQuery({ q: "", runs: "", net: "", trust: "", page: "" })).toEqual(DEFAULT_QUERY);
  });

  it("reads every option, trims and squeezes the words, and takes the first of repeated values", () => {
    expect(
      parseBrowseQuery(new URLSearchParams("q=%20csv%20%20stats%20&runs=sandbox&net=none&status=failed&trust=first_party&sort=newest&page=3&q=ignored")),
    ).toEqual({ q: "csv stats", runs: "sandbox", net: "none", status: "failed", trust: "first_party", sort: "newest", page: 3 });
    expect(parseBrowseQuery({ q: ["first", "second"] }).q).toBe("first");
  });

  it("refuses what it cannot read with one code and a message per parameter", () => {
    for (const bad of [{ page: "0" }, { page: "1.5" }, { page: "501" }, { page: "x" }, { sort: "random" }, { net: "some" }, { q: "x".repeat(101) }]) {
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
