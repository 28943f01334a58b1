// The download behind "Download SKILL.md folder": only for prompt skills (a sandbox skill's tools
// would not survive the trip, so it is not offered as an Agent Skills folder).
import "server-only";
import type { SkillDocument } from "../contracts";
import { AppError } from "../errors";
import { skillMdZip, skillMdZipName } from "./skill-md-zip";
import { getVersion } from "./versions";

export async function skillMdDownload(slug: string, version: string) {
  const row = await getVersion(slug.slice(0, 64), version.slice(0, 64));
  const doc = row.document as unknown as SkillDocument;
  if (row.runs !== "prompt") {
    throw new AppError("skill.not_prompt", `${slug}@${version} runs code; only prompt skills download as a SKILL.md folder.`);
  }
  return { bytes: skillMdZip(doc), filename: skillMdZipName(doc) };
}
