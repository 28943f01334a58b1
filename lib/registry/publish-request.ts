// Publishing from an HTTP request (API, web page, CLI): read the upload, validate every rule at
// once, then publish, or with `dryRun` only report what would be published.
import "server-only";
import { bundleFromFiles, invalidContractError, validateSkillDocument, type SkillDocument } from "../contracts";
import { config } from "../config/env.mjs";
import { AppError } from "../errors";
import { publishSkill } from "./publish";
import { documentFromSkillMd, isSkillMdFolder } from "./skill-md";
import { readUpload } from "./upload";

export type PublishResponse = {
  slug: string;
  version: string;
  integrity: string;
  status: string;
  created: boolean;
  dry_run: boolean;
  /** `skill_md` when the upload was an Agent Skills folder (SKILL.md, no skill.json). */
  source: "bundle" | "skill_md" | "document";
  url: string;
  listing_url: string;
};

export async function publishFromRequest(
  ownerId: string,
  req: Request,
  options: { dryRun: boolean; version?: string },
): Promise<PublishResponse> {
  const upload = await readUpload(req);
  const source = upload.kind === "document" ? "document" : isSkillMdFolder(upload.files) ? "skill_md" : "bundle";
  if (options.version !== undefined && source !== "skill_md") {
    throw new AppError(
      "request.invalid",
      "`version` applies only to a SKILL.md folder; a skill.json or a JSON document states its own version.",
    );
  }
  const result =
    upload.kind === "document"
      ? validateSkillDocument(upload.document)
      : source === "skill_md"
        ? documentFromSkillMd(upload.files, { version: options.version })
        : await bundleFromFiles(upload.files);
  if (!result.ok) throw invalidContractError(result.errors);
  const document: SkillDocument = result.document;
  const urls = skillUrls(document.slug, document.version);
  if (options.dryRun) {
    return {
      slug: document.slug,
      version: document.version,
      integrity: document.integrity,
      status: "not_published",
      created: false,
      dry_run: true,
      source,
      ...urls,
    };
  }
  const published = await publishSkill({ ownerId, document });
  return {
    slug: published.slug,
    version: published.version,
    integrity: document.integrity,
    status: published.status,
    created: published.created,
    dry_run: false,
    source,
    ...urls,
  };
}

export function skillUrls(slug: string, version: string) {
  const base = config().APP_URL.replace(/\/$/, "");
  return {
    url: `${base}/skills/${slug}/${version}`,
    listing_url: `${base}/api/v1/skills/${slug}/${version}/listing`,
  };
}
