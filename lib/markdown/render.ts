// Turns the Markdown tree into React elements. Every string reaches React as a text child, so React
// escapes it: there is no HTML string and no dangerouslySetInnerHTML anywhere on this path.
import { createElement as h, Fragment, type ReactNode } from "react";
import { parseMarkdown, type Block, type Inline } from "./parse";

export const EXTERNAL_REL = "noopener noreferrer nofollow ugc";

export type RenderOptions = {
  /** Added to each heading level, so `#` sits under the page's own headings (capped at h6). */
  headingOffset?: number;
  /** Class names for the few elements that need styling hooks. */
  classes?: { external?: string; table?: string; unsafe?: string };
};

export function renderMarkdown(source: string, options: RenderOptions = {}): ReactNode {
  return h(Fragment, null, ...parseMarkdown(source).map((b, i) => block(b, i, options)));
}

function block(b: Block, key: number, o: RenderOptions): ReactNode {
  switch (b.type) {
    case "heading": {
      const level = Math.min(6, b.level + (o.headingOffset ?? 0));
      return h(`h${level}`, { key }, ...inlines(b.children, o));
    }
    case "paragraph":
      return h("p", { key }, ...inlines(b.children, o));
    case "code":
      return h(
        "pre",
        { key, tabIndex: 0 },
        h("code", b.lang ? { "data-lang": b.lang.slice(0, 32) } : null, b.value),
      );
    case "quote":
      return h("blockquote", { key }, ...b.children.map((c, i) => block(c, i, o)));
    case "list":
      return h(
        b.ordered ? "ol" : "ul",
        { key, ...(b.ordered && b.start !== 1 ? { start: b.start } : {}) },
        ...b.items.map((item, i) => h("li", { key: i }, ...listItem(item, o))),
      );
    case "table":
      return h(
        "div",
        { key, className: o.classes?.table, tabIndex: 0, role: "region", "aria-label": "Table" },
        h(
          "table",
          null,
          h("thead", null, h("tr", null, ...b.head.map((c, i) => h("th", { key: i, style: align(b.align[i]) }, ...inlines(c, o))))),
          h(
            "tbody",
            null,
            ...b.rows.map((row, r) =>
              h("tr", { key: r }, ...row.map((c, i) => h("td", { key: i, style: align(b.align[i]) }, ...inlines(c, o)))),
            ),
          ),
        ),
      );
    case "rule":
      return h("hr", { key });
  }
}

/** A one-paragraph list item renders tight (no <p>), like most Markdown renderers do. */
function listItem(item: Block[], o: RenderOptions): ReactNode[] {
  if (item.length >= 1 && item[0]!.type === "paragraph") {
    const [first, ...rest] = item as [Block & { type: "paragraph" }, ...Block[]];
    return [h(Fragment, { key: "p" }, ...inlines(first.children, o)), ...rest.map((b, i) => block(b, i + 1, o))];
  }
  return item.map((b, i) => block(b, i, o));
}

function align(a: string | null | undefined) {
  return a ? { textAlign: a as "left" | "center" | "right" } : undefined;
}

function inlines(list: Inline[], o: RenderOptions): ReactNode[] {
  return list.map((n, key) => inline(n, key, o));
}

function externalLink(key: number, href: string, children: ReactNode[], o: RenderOptions): ReactNode {
  return h(
    "a",
    { key, href, rel: EXTERNAL_REL, target: "_blank", className: o.classes?.external },
    ...children,
    h("span", { key: "x", "aria-hidden": true, "data-external": "" }, " ↗"),
    h("span", { key: "sr", className: "visually-hidden" }, " (external site, opens in a new tab)"),
  );
}

function inline(n: Inline, key: number, o: RenderOptions): ReactNode {
  switch (n.type) {
    case "text":
      return n.value;
    case "code":
      return h("code", { key }, n.value);
    case "em":
      return h("em", { key }, ...inlines(n.children, o));
    case "strong":
      return h("strong", { key }, ...inlines(n.children, o));
    case "break":
      return h("br", { key });
    case "link":
      return externalLink(key, n.href, inlines(n.children, o), o);
    case "unsafe-link":
      return h(
        "span",
        { key, className: o.classes?.unsafe, title: "Link removed: only web and email links are allowed" },
        ...inlines(n.children, o),
      );
    case "image":
      return n.href
        ? externalLink(key, n.href, [`image: ${n.alt || "untitled"}`], o)
        : h("span", { key, className: o.classes?.unsafe }, `image: ${n.alt || "untitled"}`);
  }
}
