// Package names one or two edits away from a popular one (`reqeusts`, `expres`), from a dated list
// of popular npm and PyPI names shipped with the code (data/popular-packages.json says where it
// came from). The comparison is banded, so it is linear in the name for a fixed list.
import popular from "./data/popular-packages.json";
import { editDistanceAtMost } from "./hosts";

const LISTS = { npm: new Set<string>(popular.npm), pypi: new Set<string>(popular.pypi) };
const pypiNorm = (s: string) => s.toLowerCase().replace(/[._]+/g, "-");

/** The popular name `name` imitates, or null (a popular name itself, or nothing close). */
export function typosquatOf(name: string, registry: "npm" | "pypi"): string | null {
  const list = LISTS[registry];
  const n = registry === "pypi" ? pypiNorm(name) : name.toLowerCase();
  if (n.length < 4 || n.length > 80 || list.has(n)) return null;
  // the other registry's popular names are not squats either (e.g. `playwright` on both)
  if (LISTS.npm.has(n) || LISTS.pypi.has(n)) return null;
  for (const p of list) {
    if (p.startsWith("@")) continue;
    const k = Math.min(p.length, n.length) >= 7 ? 2 : 1;
    if (Math.abs(p.length - n.length) > k) continue;
    // a suffix such as `-cli` or `2` on a popular name is usually its own real package
    if (n.startsWith(p + "-") || n.startsWith(p + "js")) continue;
    if (editDistanceAtMost(p, n, k)) return p;
  }
  return null;
}

export const POPULAR_PACKAGES_DATE = popular.date;
