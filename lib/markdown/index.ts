// Safe Markdown for skill instructions: parse to a tree, render React elements, never raw HTML.
export { parseMarkdown, parseInline, safeHref, MAX_MARKDOWN_CHARS, type Block, type Inline, type Align } from "./parse";
export { renderMarkdown, EXTERNAL_REL, type RenderOptions } from "./render";
