// "Download SKILL.md folder": a prompt skill as a .zip holding one folder named after the skill,
// an Agent Skills folder (SKILL.md with front matter, and its resources). Written by fflate with a
// fixed timestamp, so the same version always downloads as the same bytes.
import { zipSync, type Zippable } from "fflate";
import type { SkillDocument } from "../contracts";
import { skillMdFolder } from "./skill-md";

// DOS time starts in 1980; any fixed date keeps the archive's bytes stable.
const FIXED_MTIME = new Date(Date.UTC(2000, 0, 1));

export function skillMdZip(doc: SkillDocument): Uint8Array {
  const entries: Zippable = {};
  for (const [path, bytes] of skillMdFolder(doc)) entries[`${doc.slug}/${path}`] = [bytes, { mtime: FIXED_MTIME }];
  return zipSync(entries, { level: 6 });
}

export const skillMdZipName = (doc: Pick<SkillDocument, "slug" | "version">) => `${doc.slug}-${doc.version}.zip`;
