#!/bin/sh
# Prisma's schema engine is a binary the CLI would download; this project never fetches it.
# `prisma generate` only needs this path to exist. Migrations: `npm run db:migrate` (scripts/db.ts).
echo "openvibe: the Prisma schema engine is not used here; migrations are applied by scripts/db.ts (npm run db:migrate)" >&2
exit 1
