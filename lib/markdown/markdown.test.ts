// Instructions are written by strangers: whatever they contain must render inert.
import { describe, expect, it } from "vitest";
import { renderMarkdownHtml, safeHref } from "./index";

const html = (md: string) => renderMarkdownHtml(md).trim();
const tags = (out: string) => [...out.matchAll(/<([a-z0-9]+)/gi)].map((m) => m[1]);

describe("safe rendering", () => {
  it("shows a <script> element as text, never as an element", () => {
    const out = html('Hello <script>alert("x")</script> world\n\n<script src="https://evil.test/x.js"></script>');
    expect(out).not.toMatch(/<script/i);
    expect(out).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(out).toContain("&lt;script src=&quot;https://evil.test/x.js&quot;&gt;&lt;/script&gt;");
  });

  it("keeps raw HTML as text: no img, iframe, event handlers or style", () => {
    const out = html(
      '<img src=x onerror="alert(1)"> <iframe src="https://evil.test"></iframe>\n<div style="position:fixed">hi</div>',
    );
    expect(out).not.toMatch(/<(img|iframe|div)\b/i);
    // The only element is the paragraph; "onerror" survives only as escaped text inside it.
    expect(tags(out)).toEqual(["p"]);
    expect(out).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(out).toContain("&lt;div style=&quot;position:fixed&quot;&gt;hi&lt;/div&gt;");
  });

  it("keeps an HTML block (a line starting with a tag) as text too", () => {
    const out = html('<details open>\n<summary onclick="x()">s</summary>\n</details>\n\n<!-- hidden -->');
    expect(tags(out)).toEqual(["p", "p"]);
    expect(out).toContain("&lt;details open&gt;");
    expect(out).toContain("&lt;!-- hidden --&gt;");
  });

  it("drops javascript:, data: and vbscript: links, keeping their text inert", () => {
    for (const target of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "data:text/html,<b>x</b>",
      "vbscript:msgbox",
      "java\tscript:alert(1)",
    ]) {
      const out = html(`[click me](${target})`);
      expect(out, target).not.toMatch(/<a\b/);
      expect(out, target).not.toMatch(/href=/);
      expect(out, target).toContain("click me");
    }
    expect(html("<javascript:alert(1)>")).not.toMatch(/<a\b/);
    expect(html("[x]: javascript:alert(1)\n\n[click][x]")).not.toMatch(/<a\b|href=/);
  });

  it("marks a refused link as removed, keeping its text", () => {
    expect(html("[admin](/admin)")).toBe(
      '<p><span class="md-unsafe" title="Link removed: only web and email links are allowed">admin</span></p>',
    );
  });

  it("drops relative and protocol-less links (only absolute http(s) and mailto)", () => {
    expect(safeHref("/admin")).toBeNull();
    expect(safeHref("//evil.test")).toBeNull();
    expect(safeHref("#top")).toBeNull();
    expect(safeHref("https://example.com/a?b=1")).toBe("https://example.com/a?b=1");
    expect(safeHref("mailto:someone@example.com")).toBe("mailto:someone@example.com");
    expect(html("[top](#top) [up](../x) [proto](//evil.test)")).not.toMatch(/<a\b/);
  });

  it("marks every link as external: new tab, no referrer, nofollow ugc, and a visible marker", () => {
    const out = html("See [the docs](https://example.com/docs) or <https://example.org>.");
    expect(out).toContain(
      '<a href="https://example.com/docs" rel="noopener noreferrer nofollow ugc" target="_blank" class="md-external">the docs<span aria-hidden="true" data-external=""> ↗</span>',
    );
    expect(out).toContain('href="https://example.org/"');
    expect(out.match(/target="_blank"/g)).toHaveLength(2);
    expect(out).toContain("(external site, opens in a new tab)");
  });

  it("never loads an image: a safe image becomes a link to it, an unsafe one plain text", () => {
    const out = html("![a *pixel*](https://tracker.test/p.gif) ![bad](javascript:alert(1))");
    expect(out).not.toMatch(/<img/i);
    expect(out).toContain(
      '<a href="https://tracker.test/p.gif" rel="noopener noreferrer nofollow ugc" target="_blank" class="md-external">image: a pixel',
    );
    expect(out).toContain("image: bad");
    expect(out).not.toContain("javascript:");
  });

  it("escapes HTML inside code spans and code blocks, keeping a short language tag", () => {
    const out = html("Use `<b>` here.\n\n```html onload=x\n<script>alert(1)</script>\n```");
    expect(out).toContain("<code>&lt;b&gt;</code>");
    expect(out).toContain(
      '<pre tabindex="0"><code data-lang="html">&lt;script&gt;alert(1)&lt;/script&gt;\n</code></pre>',
    );
    expect(html('```"><script>\nx\n```')).toContain('data-lang="&quot;&gt;&lt;script&gt;"');
  });

  it("keeps a link label's markup but not HTML in it", () => {
    const out = html("[**bold** <em>x</em>](https://example.com)");
    expect(out).toContain("<strong>bold</strong> &lt;em&gt;x&lt;/em&gt;");
  });

  it("renders the first lines of a block-dense document and shows the rest as text", async () => {
    const { MAX_MARKDOWN_LINES } = await import("./render");
    const out = renderMarkdownHtml("- item\n".repeat(MAX_MARKDOWN_LINES + 10) + "<b>tail</b>");
    expect((out.match(/<li>/g) ?? []).length).toBe(MAX_MARKDOWN_LINES);
    expect(out).toMatch(/<pre tabindex="0"><code>(- item\n){10}&lt;b&gt;tail&lt;\/b&gt;<\/code><\/pre>\n$/);
  });

  it("shows paragraphs past the markup budget as their plain text", async () => {
    const { MAX_INLINE_MARKUP } = await import("./render");
    const out = renderMarkdownHtml("*a* ".repeat(MAX_INLINE_MARKUP / 2) + "\n\n**late** <b>x</b>");
    expect(out).toContain("<em>a</em>");
    expect(out).toContain("<p>**late** &lt;b&gt;x&lt;/b&gt;</p>");
  });

  it("shows input past the size cap as one escaped block", () => {
    const out = renderMarkdownHtml("<b>x</b>".repeat(20_000));
    expect(tags(out)).toEqual(["pre", "code"]);
  });
});

describe("Markdown structure", () => {
  it("nests emphasis: strong in em, em in strong, and both at once", () => {
    expect(html("*a **b** c*")).toBe("<p><em>a <strong>b</strong> c</em></p>");
    expect(html("**a *b* c**")).toBe("<p><strong>a <em>b</em> c</strong></p>");
    expect(html("***both***")).toBe("<p><em><strong>both</strong></em></p>");
    expect(html("_under_ and __strong__")).toBe("<p><em>under</em> and <strong>strong</strong></p>");
  });

  it("leaves snake_case, lone stars and unclosed markers as text", () => {
    expect(html("call column_stats and has_header")).toBe("<p>call column_stats and has_header</p>");
    expect(html("2 * 3 * 4")).toBe("<p>2 * 3 * 4</p>");
    expect(html("**not closed")).toBe("<p>**not closed</p>");
  });

  it("parses headings, lists, quotes, rules and fenced and indented code", () => {
    const out = html(
      "# Title\n\n- one\n- two\n  - nested\n\n1. first\n2. second\n\n> quoted\n\n---\n\n    indented\n\n~~~\nfenced\n~~~",
    );
    expect(tags(out)).toEqual([
      "h1",
      "ul",
      "li",
      "li",
      "ul",
      "li",
      "ol",
      "li",
      "li",
      "blockquote",
      "p",
      "hr",
      "pre",
      "code",
      "pre",
      "code",
    ]);
    expect(html("1. first\n2. second").replace(/\n/g, "")).toBe("<ol><li>first</li><li>second</li></ol>");
    expect(html("3. third").replace(/\n/g, "")).toBe('<ol start="3"><li>third</li></ol>');
  });

  it("shifts heading levels under the page's own headings", () => {
    expect(renderMarkdownHtml("# Top\n###### Deep", { headingOffset: 2 }).replace(/\n/g, "")).toBe(
      "<h3>Top</h3><h6>Deep</h6>",
    );
  });

  it("renders GFM tables with alignment and code in cells, in a scrollable region", () => {
    const out = html("| field | meaning |\n|---|:---:|\n| `count` / `empty` | filled \\| blank |");
    expect(out).toContain('<div class="md-table" tabindex="0" role="region" aria-label="Table"><table>');
    expect(out).toContain("<th>field</th>");
    expect(out).toContain('<td style="text-align:center">filled | blank</td>');
    expect(out).toContain("<td><code>count</code> / <code>empty</code></td>");
  });

  it("keeps text that only looks like Markdown when it is escaped", () => {
    expect(html("\\*not em\\* and \\[not a link\\](x)")).toBe("<p>*not em* and [not a link](x)</p>");
  });

  it("stops nesting at a fixed depth instead of recursing on", () => {
    const out = html(">".repeat(5_000) + " deep");
    expect((out.match(/<blockquote>/g) ?? []).length).toBeLessThanOrEqual(20);
  });
});
