import { route } from "@/lib/http/route";
import { getSkill } from "@/lib/registry";

export const GET = route({
  handler: async ({ params }) => {
    const skill = await getSkill(params.slug ?? "");
    return {
      slug: skill.slug,
      author: skill.owner.handle,
      trust: skill.trust,
      installs: skill.installsCount,
      latest: skill.latest,
      versions: skill.versions.map((v) => ({
        version: v.version,
        contract: v.contract,
        runs: v.runs,
        status: v.status,
        integrity: v.integrity,
        published_at: v.publishedAt,
        retired_at: v.retiredAt,
      })),
    };
  },
});
