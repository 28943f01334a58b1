import { defineConfig } from "prisma/config";

// Only `prisma generate` uses this file; see scripts/db.ts for migrations.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
