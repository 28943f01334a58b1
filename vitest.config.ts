import path from "node:path";
import { defineConfig } from "vitest/config";

const root = import.meta.dirname;

// Suites: `unit` (pure logic, colocated *.test.ts), `integration` (*.int.test.ts against the real
// PostgreSQL and Redis that scripts/test.mjs provisions) and `sandbox` (real processes in the
// real Link sandbox, link/**/*.test.ts).
export default defineConfig({
  resolve: { alias: { "server-only": path.join(root, "test/server-only-stub.ts"), "@": root } },
  test: {
    // Temp folders made with test/helpers/temp-dir.ts are removed after each file.
    setupFiles: [path.join(root, "test/helpers/vitest-setup.ts")],
    // Whole suites run from one address: raise every rate limit (test/integration/rate-limits.test.ts runs at 1×).
    env: { RATE_LIMIT_SCALE: "50" },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          globalSetup: [path.join(root, "test/helpers/build-programs.ts")],
          include: ["lib/**/*.test.ts", "workers/**/*.test.ts", "scripts/**/*.test.ts", "test/unit/**/*.test.ts"],
          exclude: ["**/*.int.test.ts", "**/node_modules/**"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          globalSetup: [path.join(root, "test/helpers/build-programs.ts")],
          include: [
            "lib/**/*.int.test.ts",
            "workers/**/*.int.test.ts",
            "scripts/**/*.int.test.ts",
            "test/integration/**/*.test.ts",
          ],
          exclude: ["**/node_modules/**"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: "sandbox",
          globalSetup: [path.join(root, "test/helpers/build-programs.ts")],
          include: ["link/**/*.test.ts"],
          exclude: ["**/node_modules/**"],
          testTimeout: 60_000,
        },
      },
    ],
  },
});
