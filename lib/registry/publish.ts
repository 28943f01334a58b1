// Publishing one version of a skill: the single code path behind the web page, the HTTP API, the
// CLI and the demo seed. Code bytes go to Media and are pinned on the listing by sha256 in the same
// transaction as the version and its transparency-log entry; a failure leaves no row and no orphan
// bytes. The scan is queued after.
import "server-only";
import { isCodeResource, type SkillDocument } from "../contracts";
import { db, Prisma, type SkillTrust } from "../db";
import { AppError } from "../errors";
import { log } from "../log";
import { withMediaTransaction } from "../media";
import { appendToLog } from "../tlog";
import { listingContractFor } from "./listing";
import { renderVersionMarkdown } from "./rendered-markdown";
import { enqueueScan } from "./scan-queue";
import { semverParts } from "./semver";
import { recordAudit } from "../audit";

export type PublishInput = {
  ownerId: string;
  /** A document that validateSkillDocument / bundleFromFiles accepted. */
  document: SkillDocument;
  trust?: SkillTrust;
  /** Only the demo seed backdates versions. */
  publishedAt?: Date;
  /** `queue` (default): the scan worker picks it up; `none`: the caller scans (seed, tests). */
  scan?: "queue" | "none";
};

export type PublishResult = {
  skillId: string;
  versionId: string;
  slug: string;
  version: string;
  status: string;
  /** False when exactly this content was already published (a harmless retry). */
  created: boolean;
};

export const runsOf = (doc: SkillDocument) => (doc.contract === "actor.skill@2" ? doc.runs : "prompt");

export async function publishSkill(input: PublishInput): Promise<PublishResult> {
  const { document, ownerId } = input;
  const already = await existingVersion(ownerId, document);
  if (already) return already;

  const runs = runsOf(document);
  const code = document.resources
    .filter(isCodeResource)
    .map((r) => ({ name: r.name, bytes: Buffer.from(r.text, "utf8") }));
  if (runs === "sandbox" && code.length === 0) {
    throw new AppError("contract.listing_code_missing", "A sandbox skill needs at least one code resource.");
  }

  const rendered = await renderVersionMarkdown(document);
  let result: PublishResult;
  try {
    result = await withMediaTransaction(async (tx, media) => {
      const skill =
        (await tx.skill.findUnique({ where: { slug: document.slug }, select: { id: true, ownerId: true } })) ??
        (await tx.skill.create({
          data: { slug: document.slug, ownerId, trust: input.trust ?? "community" },
          select: { id: true, ownerId: true },
        }));
      if (skill.ownerId !== ownerId) throw notOwner(document.slug);
      // Taken before the version row's foreign key share-locks the skill: the SkillLatest trigger
      // locks the skill for update, and two publishes of one skill holding share locks would
      // deadlock waiting for each other's.
      await tx.$queryRaw`SELECT 1 FROM "Skill" WHERE id = ${skill.id} FOR UPDATE`;

      const pins = [];
      for (const c of code) {
        const object = await media.put({ bytes: c.bytes, mediaType: "text/javascript", ownerId });
        pins.push({ name: c.name, mediaId: object.id, sha256: object.sha256, sizeBytes: object.sizeBytes });
      }
      const version = await tx.skillVersion.create({
        data: {
          skillId: skill.id,
          version: document.version,
          ...semverParts(document.version),
          contract: document.contract,
          document: document as unknown as Prisma.InputJsonValue,
          integrity: document.integrity,
          runs,
          name: document.name,
          summary: document.summary,
          instructions: document.instructions,
          instructionsHtml: rendered.instructionsHtml,
          resourcesHtml: rendered.resourcesHtml,
          status: "scanning",
          ...(input.publishedAt ? { publishedAt: input.publishedAt } : {}),
          listing: { create: { contract: listingContractFor(document.contract), code: { create: pins } } },
        },
        select: { id: true, status: true },
      });
      await appendToLog(tx, { versionId: version.id, event: "publish" });
      await recordAudit(tx, {
          userId: ownerId,
          actor: `user:${ownerId}`,
          action: "skill.published",
          subjectType: "skill_version",
          subjectId: version.id,
          data: { slug: document.slug, version: document.version, integrity: document.integrity },
        });
      return {
        skillId: skill.id,
        versionId: version.id,
        slug: document.slug,
        version: document.version,
        status: version.status,
        created: true,
      };
    });
  } catch (err) {
    // Two publishes of the same slug or version at once: the loser re-reads what the winner stored.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      const raced = await existingVersion(ownerId, document);
      if (raced) return raced;
      throw new AppError("skill.publish_conflict", "Someone published this skill at the same moment; try again.");
    }
    throw err;
  }

  if (input.scan !== "none") {
    // The scan sweeper re-queues any version left in `scanning`, so a failure here is not lost.
    await enqueueScan(result.versionId).catch((err: unknown) =>
      log.error("could not queue the scan; the sweeper will", { versionId: result.versionId, err }),
    );
  }
  return result;
}

async function existingVersion(ownerId: string, document: SkillDocument): Promise<PublishResult | null> {
  const skill = await db.skill.findUnique({ where: { slug: document.slug }, select: { id: true, ownerId: true } });
  if (!skill) return null;
  if (skill.ownerId !== ownerId) throw notOwner(document.slug);
  const version = await db.skillVersion.findUnique({
    where: { skillId_version: { skillId: skill.id, version: document.version } },
    select: { id: true, integrity: true, status: true },
  });
  if (!version) return null;
  if (version.integrity !== document.integrity) {
    throw new AppError(
      "skill.version_exists",
      `${document.slug}@${document.version} is already published with different content. Published versions never change: publish a new version.`,
      { details: { slug: document.slug, version: document.version, published_integrity: version.integrity } },
    );
  }
  return {
    skillId: skill.id,
    versionId: version.id,
    slug: document.slug,
    version: document.version,
    status: version.status,
    created: false,
  };
}

const notOwner = (slug: string) =>
  new AppError("skill.not_owner", `The skill "${slug}" belongs to another author; choose another slug.`);
