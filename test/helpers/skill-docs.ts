// Skill documents for tests: a demo bundle under another slug or version, re-validated so its
// integrity is its own.
import path from "node:path";
import { loadBundle, validateSkillDocument, type SkillDocument } from "../../lib/contracts";

const DEMO = path.resolve(import.meta.dirname, "../../scripts/demo/skills");

export async function demoDocument(
  dir: string,
  change: { slug?: string; version?: string; edit?: (d: SkillDocument) => void } = {},
): Promise<SkillDocument> {
  const loaded = await loadBundle(path.join(DEMO, dir));
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  const copy = structuredClone(loaded.document) as Omit<SkillDocument, "integrity"> & { integrity?: string };
  if (change.slug) copy.slug = change.slug;
  if (change.version) copy.version = change.version;
  change.edit?.(copy as SkillDocument);
  delete copy.integrity;
  const valid = validateSkillDocument(copy);
  if (!valid.ok) throw new Error(JSON.stringify(valid.errors));
  return valid.document;
}
