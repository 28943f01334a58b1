/* eslint-disable */
// net: openvibe-only
// expect: net.use
import { readFileSync } from "node:fs";

const input = JSON.parse(readFileSync(0, "utf8") || "{}");

const BASE = "https://api.openvibe.services";

async function getListing(slug) {
  const res = await fetch(`${BASE}/v1/skills/${encodeURIComponent(slug)}`, {
    headers: { accept: "application/json" },
  });
  if (!res.ok) return { error: res.status };
  return res.json();
}

const listing = await getListing(String(input.slug || ""));
process.stdout.write(JSON.stringify({ title: listing.title ?? null, version: listing.version ?? null }));
