// Every page the app serves, read from app/**/page.tsx, so a new page is checked without anyone
// adding it to a list. A dynamic segment needs a real value: a page without one fails loudly.
import { readdirSync } from "node:fs";
import path from "node:path";

const APP = path.resolve("app");

/** Route patterns such as "/skills/[slug]/[version]", from every page.tsx outside private folders. */
export function pagePatterns(): string[] {
  const files = readdirSync(APP, { recursive: true, encoding: "utf8" }).filter((f) => path.basename(f) === "page.tsx");
  return files
    .map((f) =>
      path
        .dirname(f)
        .split(path.sep)
        .filter((s) => s !== "."),
    )
    .filter((segments) => !segments.some((s) => s.startsWith("_")))
    .map((segments) => `/${segments.filter((s) => !/^\(.*\)$/.test(s)).join("/")}`)
    .sort();
}

/**
 * The URL of each page: `values` gives, per pattern with dynamic segments, its segment values
 * (and optionally a query string for any pattern).
 */
export function pageUrls(values: Record<string, Record<string, string>>, queries: Record<string, string> = {}) {
  return pagePatterns().map((pattern) => {
    const filled = pattern.replace(/\[([^\]]+)\]/g, (_, name: string) => {
      const value = values[pattern]?.[name];
      if (!value) throw new Error(`no value for [${name}] of ${pattern}: add one to the page list`);
      return encodeURIComponent(value);
    });
    return { pattern, path: queries[pattern] ? `${filled}?${queries[pattern]}` : filled };
  });
}
