// Renders the Markdown HTML of versions published before it was stored at publish time (the
// 20261201020000_harden migration added the columns). Run by `scripts/db.ts migrate` after the
// migrations, in batches, until no version lacks it; plain pg so it runs outside the app.
import pg from "pg";
import { renderVersionMarkdown } from "./rendered-markdown";

const BATCH = 50;

/** Fills instructionsHtml/resourcesHtml where missing; resolves to how many versions it rendered. */
export async function backfillRenderedMarkdown(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let done = 0;
  try {
    for (;;) {
      const rows = await client.query<{ id: string; instructions: string; document: { resources?: [] } }>(
        `select "id", "instructions", "document" from "SkillVersion" where "instructionsHtml" is null order by "id" limit $1`,
        [BATCH],
      );
      for (const row of rows.rows) {
        const html = await renderVersionMarkdown({ instructions: row.instructions, resources: row.document.resources });
        await client.query(
          `update "SkillVersion" set "instructionsHtml" = $2, "resourcesHtml" = $3 where "id" = $1 and "instructionsHtml" is null`,
          [row.id, html.instructionsHtml, JSON.stringify(html.resourcesHtml)],
        );
        done++;
      }
      if (rows.rows.length < BATCH) return done;
    }
  } finally {
    await client.end();
  }
}
