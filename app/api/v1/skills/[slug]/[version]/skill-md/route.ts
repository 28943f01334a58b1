import { route } from "@/lib/http/route";
import { skillMdDownload } from "@/lib/registry/skill-md-download";

/** "Download SKILL.md folder": a prompt skill as a .zip holding its Agent Skills folder. */
export const GET = route({
  handler: async ({ params }) => {
    const { bytes, filename } = await skillMdDownload(params.slug ?? "", params.version ?? "");
    return new Response(new Uint8Array(bytes), {
      headers: {
        "content-type": "application/zip",
        "content-disposition": `attachment; filename="${filename}"`,
        "cache-control": "public, max-age=3600, immutable",
      },
    });
  },
});
