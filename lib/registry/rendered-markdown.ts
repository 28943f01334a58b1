// The HTML a version's page shows for its Markdown: instructions and every `text/markdown`
// resource, rendered once when the version is published (and by the migration backfill for older
// rows), so a page view never parses Markdown. Pure: no database, importable from scripts.
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { renderMarkdownHtml } from "../markdown";

/** Page headings are h1/h2, so a document's `#` renders as h3. */
export const MARKDOWN_HEADING_OFFSET = 2;

export type RenderedMarkdown = { instructionsHtml: string; resourcesHtml: Record<string, string> };

type MarkdownSource = { instructions: string; resources?: { name: string; media_type: string; text: string }[] };

export const isMarkdownResource = (r: { media_type: string }) => r.media_type === "text/markdown";

/** Renders each document in turn, yielding between them so other requests are served meanwhile. */
export async function renderVersionMarkdown(doc: MarkdownSource): Promise<RenderedMarkdown> {
  const render = (text: string) => renderMarkdownHtml(text, { headingOffset: MARKDOWN_HEADING_OFFSET });
  const instructionsHtml = render(doc.instructions);
  const resources: [string, string][] = [];
  for (const r of doc.resources ?? []) {
    if (!isMarkdownResource(r)) continue;
    await yieldToEventLoop();
    resources.push([r.name, render(r.text)]);
  }
  // fromEntries defines own properties, so even a resource named "__proto__" stays a plain key.
  return { instructionsHtml, resourcesHtml: Object.fromEntries(resources) };
}
