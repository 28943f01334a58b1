// Semantic versions as the registry orders them (semver 2.0.0 precedence; build metadata ignored).

export type SemverParts = { semverMajor: number; semverMinor: number; semverPatch: number; prerelease: string | null };

const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z.-]+)?$/;

export function semverParts(version: string): SemverParts {
  const m = SEMVER.exec(version);
  if (!m) throw new Error(`Not a semver version: ${version}`);
  return { semverMajor: Number(m[1]), semverMinor: Number(m[2]), semverPatch: Number(m[3]), prerelease: m[4] ?? null };
}

/** Negative when a < b, positive when a > b, 0 when they have the same precedence. */
export function compareSemver(a: string | SemverParts, b: string | SemverParts): number {
  const x = typeof a === "string" ? semverParts(a) : a;
  const y = typeof b === "string" ? semverParts(b) : b;
  return (
    x.semverMajor - y.semverMajor ||
    x.semverMinor - y.semverMinor ||
    x.semverPatch - y.semverPatch ||
    comparePrerelease(x.prerelease, y.prerelease)
  );
}

function comparePrerelease(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1; // a release outranks its pre-releases
  if (b === null) return -1;
  const xs = a.split(".");
  const ys = b.split(".");
  for (let i = 0; i < Math.max(xs.length, ys.length); i++) {
    const x = xs[i];
    const y = ys[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const xn = /^\d+$/.test(x);
    const yn = /^\d+$/.test(y);
    if (xn && yn) {
      const d = Number(x) - Number(y);
      if (d) return d;
    } else if (xn !== yn) {
      return xn ? -1 : 1;
    } else if (x !== y) {
      return x < y ? -1 : 1;
    }
  }
  return 0;
}
