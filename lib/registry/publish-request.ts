// Publishing from an HTTP request (API, web page, CLI): read the upload, validate every rule at
// once, then publish, or with `dryRun` only report what would be published.
import "server-only";
import { bundleFromFiles, invalidContractError, validateSkillDocument, type SkillDocument } from "../contracts";
import { config } from "../config/env.mjs";
import { publishSkill } from "./publish";
import { readUpload } from "./upload";

export type PublishResponse = {
  slug: string;
  version: string;
  integrity: string;
  status: string;
  created: boolean;
  dry_run: boolean;
  url: string;
  listing_url: string;
};

export async function publishFromRequest(
  ownerId: string,
  req: Request,
  options: { dryRun: boolean },
): Promise<PublishResponse> {
  const upload = await readUpload(req);
  const result = upload.kind === "files" ? await bundleFromFiles(upload.files) : validateSkillDocument(upload.document);
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
