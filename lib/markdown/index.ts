// Safe Markdown for skill instructions and Markdown resources: rendered once to HTML at publish.
export { renderMarkdownHtml, EXTERNAL_REL, MARKDOWN_CLASSES, MAX_MARKDOWN_CHARS, type RenderOptions } from "./render";
export { safeHref } from "./safe-href";
