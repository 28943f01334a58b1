// Skill instructions and Markdown resources to safe HTML, with markdown-it (raw HTML off, so any
// tag an author writes comes out as escaped text). Our render rules then decide every element that
// can point elsewhere: only absolute http(s) and mailto links survive, each marked as leaving the
// site; an image is never loaded, it becomes a link to itself; code blocks carry only a short
// language tag. Runs once per version at publish (lib/registry), never on a page view.
import markdownIt, { type MarkdownIt, type RendererRule, type Token } from "markdown-it";
import { safeHref } from "./safe-href";

export const EXTERNAL_REL = "noopener noreferrer nofollow ugc";
/** Input past this many characters is shown as one escaped code block: the work stays bounded. */
export const MAX_MARKDOWN_CHARS = 128 * 1024;
/**
 * Block-dense input (thousands of one-character paragraphs, list items or table rows) costs the
 * parser per block, not per byte: lines past this many are shown as plain text after the rendered
 * part. Real instructions run 20 to 70 bytes a line, so 64 KiB of them stays under it.
 */
export const MAX_MARKDOWN_LINES = 3_000;
/**
 * Markup characters (emphasis, brackets, backticks, …) the inline parser reads per document;
 * paragraphs past the budget are shown as their plain text. Prose spends a few per sentence.
 */
export const MAX_INLINE_MARKUP = 8_192;
/** How deep blocks and inline markup may nest before the rest renders as text. */
const MAX_NESTING = 20;
/** Stable class names in the stored HTML (styled by components/markdown.module.css). */
export const MARKDOWN_CLASSES = { external: "md-external", table: "md-table", unsafe: "md-unsafe" } as const;
const UNSAFE_TITLE = "Link removed: only web and email links are allowed";

export type RenderOptions = {
  /** Added to each heading level, so `#` sits under the page's own headings (capped at h6). */
  headingOffset?: number;
};

const engines = new Map<number, MarkdownIt>();

/** The HTML of `source`: every byte of it escaped or produced by the rules below. */
export function renderMarkdownHtml(source: string, options: RenderOptions = {}): string {
  const text = source.replace(/\r\n?/g, "\n");
  if (text.length > MAX_MARKDOWN_CHARS) return plain(text);
  const cut = nthNewline(text, MAX_MARKDOWN_LINES);
  if (cut !== -1) return renderMarkdownHtml(text.slice(0, cut), options) + plain(text.slice(cut + 1));
  const offset = Math.max(0, Math.min(5, Math.trunc(options.headingOffset ?? 0)));
  let md = engines.get(offset);
  if (!md) {
    md = engine(offset);
    engines.set(offset, md);
  }
  return md.render(text);
}

/** Where the nth line ends (the index of its newline), or -1 when there are not that many. */
function nthNewline(text: string, n: number): number {
  let at = -1;
  for (let line = 0; line < n; line++) {
    at = text.indexOf("\n", at + 1);
    if (at === -1) return -1;
  }
  return at;
}

const plain = (text: string) => `<pre tabindex="0"><code>${escape(text)}</code></pre>\n`;

const MARKUP = new Set([..."*_[]!`<&\\|~"].map((c) => c.charCodeAt(0)));

function markupCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (MARKUP.has(text.charCodeAt(i))) n++;
  return n;
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ESCAPES[c as keyof typeof ESCAPES]);
const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" } as const;

function engine(headingOffset: number): MarkdownIt {
  const md = markdownIt("default", { html: false, linkify: false, typographer: false, maxNesting: MAX_NESTING });
  // Every link is parsed (so a refused one keeps its text, inert); the render rules judge the target.
  md.validateLink = () => true;
  // The stock inline step, with a budget of markup characters per document (MAX_INLINE_MARKUP).
  md.core.ruler.at("inline", (state) => {
    let budget = MAX_INLINE_MARKUP;
    for (const token of state.tokens) {
      if (token.type !== "inline") continue;
      budget -= markupCount(token.content);
      if (budget >= 0) {
        state.md.inline.parse(token.content, state.md, state.env, token.children ?? (token.children = []));
      } else {
        const text = new state.Token("text", "", 0);
        text.content = token.content;
        token.children = [text];
      }
    }
  });
  const esc = md.utils.escapeHtml;
  const rules = md.renderer.rules;

  const heading: (close: boolean) => RendererRule = (close) => (tokens, i) => {
    const level = Math.min(6, Number(tokens[i]!.tag.slice(1)) + headingOffset);
    return close ? `</h${level}>\n` : `<h${level}>`;
  };
  rules.heading_open = heading(false);
  rules.heading_close = heading(true);

  rules.link_open = (tokens, i) => {
    const href = safeHref(String(tokens[i]!.attrGet("href") ?? ""));
    const close = matchingClose(tokens, i);
    if (close) close.meta = { ...close.meta, safe: href !== null };
    return href
      ? `<a href="${esc(href)}" rel="${EXTERNAL_REL}" target="_blank" class="${MARKDOWN_CLASSES.external}">`
      : `<span class="${MARKDOWN_CLASSES.unsafe}" title="${UNSAFE_TITLE}">`;
  };
  rules.link_close = (tokens, i) => (tokens[i]!.meta?.safe ? `${EXTERNAL_MARK}</a>` : "</span>");

  // Images are never loaded (no tracking pixels): a safe one is a link to it, an unsafe one text.
  rules.image = (tokens, i, options, env, self) => {
    const token = tokens[i]!;
    const alt = `image: ${self.renderInlineAsText(token.children ?? [], options, env) || "untitled"}`;
    const href = safeHref(String(token.attrGet("src") ?? ""));
    return href
      ? `<a href="${esc(href)}" rel="${EXTERNAL_REL}" target="_blank" class="${MARKDOWN_CLASSES.external}">${esc(alt)}${EXTERNAL_MARK}</a>`
      : `<span class="${MARKDOWN_CLASSES.unsafe}">${esc(alt)}</span>`;
  };

  const codeBlock = (content: string, info: string) => {
    const lang = info.trim().split(/\s/, 1)[0]?.slice(0, 32) ?? "";
    return `<pre tabindex="0"><code${lang ? ` data-lang="${esc(lang)}"` : ""}>${esc(content)}</code></pre>\n`;
  };
  rules.fence = (tokens, i) => codeBlock(tokens[i]!.content, tokens[i]!.info);
  rules.code_block = (tokens, i) => codeBlock(tokens[i]!.content, "");

  rules.table_open = () =>
    `<div class="${MARKDOWN_CLASSES.table}" tabindex="0" role="region" aria-label="Table"><table>\n`;
  rules.table_close = () => "</table></div>\n";
  return md;
}

const EXTERNAL_MARK =
  '<span aria-hidden="true" data-external=""> ↗</span><span class="visually-hidden"> (external site, opens in a new tab)</span>';

function matchingClose(tokens: Token[], open: number): Token | null {
  let depth = 0;
  for (let j = open; j < tokens.length; j++) {
    const t = tokens[j]!;
    if (t.type === "link_open") depth++;
    else if (t.type === "link_close" && --depth === 0) return t;
  }
  return null;
}
