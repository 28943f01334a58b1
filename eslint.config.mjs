import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      ".next/**",
      ".data/**",
      "node_modules/**",
      "lib/db/generated/**",
      "link/node_modules/**",
      "link/dist/**",
      "cli/dist/**",
      "dist/**",
      "next-env.d.ts",
      // Skill code is data for the scanner, not project code (some of it is deliberately unsafe).
      "scripts/demo/skills/**",
      "lib/scan/corpus/**",
      "lib/instructions/corpus/**",
    ],
  },
  {
    // process.env is read only by the config module (and the provisioning scripts that set it).
    files: ["**/*.{ts,tsx,js,mjs}"],
    // Tests and separate programs (CLI, Link, scripts) pass environments to the processes they start.
    ignores: ["lib/config/env.mjs", "scripts/**", "e2e/**", "test/**", "**/*.test.ts", "playwright.config.ts", "link/**", "cli/**", "bin/**"],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read configuration through lib/config (config())." },
      ],
    },
  },
  {
    files: ["lib/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["@/app/*", "@/components/*", "../app/*", "../../app/*", "../../components/*"], message: "lib/ never imports from app/ or components/." }] },
      ],
    },
  },
];

export default config;
