// People: creating a User together with the default Project every person has, and the handle
// that names them in public (skill authors are shown by handle).
import "server-only";
import { z } from "zod";
import { AppError } from "../errors";
import { db, Prisma } from "../db";
import { HANDLE_PATTERN, handleBase, normalizeEmail, RESERVED_HANDLES } from "./handles";
import { hashPassword } from "./password";
import { recordAudit } from "../audit";

export { HANDLE_PATTERN, handleBase, normalizeEmail } from "./handles";

export type CreateUserInput = {
  email: string;
  name: string;
  handle?: string;
  password?: string | null;
  image?: string | null;
};
export type PublicUser = { id: string; email: string; name: string; handle: string };

function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
}

async function freeHandle(base: string): Promise<string> {
  const taken = new Set(
    (await db.user.findMany({ where: { handle: { startsWith: base } }, select: { handle: true } })).map(
      (u) => u.handle,
    ),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; n < 10_000; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
  return `${base}-${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * Creates a person and their default project in one transaction. The email is normalised; the
 * handle is the one asked for (refused when taken) or derived from the name, then the email.
 * Throws `auth.email_taken` / `auth.handle_taken` (409).
 */
export async function createUser(input: CreateUserInput): Promise<PublicUser> {
  const email = normalizeEmail(input.email);
  const name = input.name.trim() || email.split("@")[0] || "Someone";
  let explicit: string | undefined;
  if (input.handle !== undefined) {
    explicit = input.handle.trim().toLowerCase();
    if (!HANDLE_PATTERN.test(explicit) || RESERVED_HANDLES.has(explicit)) {
      throw new AppError(
        "request.invalid",
        "A handle is 1-30 lowercase letters, digits or inner hyphens, and not a reserved word.",
        {
          details: [{ path: "/handle", message: "invalid handle" }],
        },
      );
    }
  }
  const hash = input.password ? await hashPassword(input.password) : null;
  if (await db.user.findUnique({ where: { email }, select: { id: true } })) throw emailTaken();
  if (explicit && (await db.user.findUnique({ where: { handle: explicit }, select: { id: true } })))
    throw handleTaken(explicit);

  const base = explicit ?? handleBase(input.name.trim() ? input.name : (email.split("@")[0] ?? ""));
  for (let attempt = 0; attempt < 5; attempt++) {
    const handle = explicit ?? (await freeHandle(base));
    try {
      return await db.$transaction(async (tx) => {
        const user = await tx.user.create({
          data: { email, name, handle, passwordHash: hash, image: input.image ?? null },
          select: { id: true, email: true, name: true, handle: true },
        });
        await tx.project.create({ data: { ownerId: user.id, name: "Default", slug: "default", isDefault: true } });
        await recordAudit(tx, {
          userId: user.id,
          actor: `user:${user.id}`,
          action: "user.created",
          subjectType: "user",
          subjectId: user.id,
        });
        return user;
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // Two sign-ups raced: find out which unique column collided.
      if (await db.user.findUnique({ where: { email }, select: { id: true } })) throw emailTaken();
      if (explicit && (await db.user.findUnique({ where: { handle: explicit }, select: { id: true } })))
        throw handleTaken(explicit);
      if (explicit) throw handleTaken(explicit);
    }
  }
  throw new AppError("auth.handle_taken", "Could not find a free handle: try again.");
}

function handleTaken(handle: string) {
  return new AppError("auth.handle_taken", `The handle "${handle}" is taken: choose another.`);
}

function emailTaken() {
  return new AppError("auth.email_taken", "An account with this email already exists: sign in instead.");
}

export async function getUserById(id: string): Promise<PublicUser | null> {
  return db.user.findUnique({ where: { id }, select: { id: true, email: true, name: true, handle: true } });
}

export async function getDefaultProject(userId: string) {
  return db.project.findFirst({
    where: { ownerId: userId, isDefault: true },
    select: { id: true, name: true, slug: true, createdAt: true },
  });
}

import { signUpSchema } from "../openapi/schemas";
export { signUpSchema };

export type SignUpInput = z.infer<typeof signUpSchema>;
