// A local tool folder as `exec` runs it: copied into the job folder, symlinks and special files
// refused, so the tool sees a snapshot that cannot point outside it; and its entry, checked to lie
// inside. Apart from ./inputs (a job's pinned inputs, checked with the protocol's schemas), so that
// `exec` loads none of those.
import { lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { LinkError } from "./errors";

const LOCAL_MAX_FILES = 256;
const LOCAL_MAX_BYTES = 32 * 1024 * 1024;

/** Copies the regular files and folders of `source` into `dir`; any symlink or special file refuses the copy. */
export function copyLocalFolder(source: string, dir: string): void {
  let files = 0;
  let bytes = 0;
  const walk = (from: string, to: string, depth: number) => {
    for (const name of readdirSync(from)) {
      if (depth === 0 && name === ".openvibe")
        throw new LinkError("link.exec.reserved_name", "A tool folder may not contain .openvibe at its top.");
      const src = path.join(from, name);
      const dst = path.join(to, name);
      const stat = lstatSync(src);
      if (stat.isSymbolicLink())
        throw new LinkError(
          "link.exec.symlink",
          `${src} is a symlink; tool folders may hold only regular files and folders.`,
        );
      if (stat.isDirectory()) {
        mkdirSync(dst, { mode: 0o755 });
        walk(src, dst, depth + 1);
      } else if (stat.isFile()) {
        files += 1;
        bytes += stat.size;
        if (files > LOCAL_MAX_FILES || bytes > LOCAL_MAX_BYTES) {
          throw new LinkError(
            "link.exec.folder_too_large",
            `A tool folder holds at most ${LOCAL_MAX_FILES} files and ${LOCAL_MAX_BYTES} bytes.`,
          );
        }
        writeFileSync(dst, readFileSync(src), { flag: "wx", mode: 0o644 });
      } else {
        throw new LinkError("link.exec.special_file", `${src} is not a regular file or folder.`);
      }
    }
  };
  walk(source, dir, 0);
}

/** An entry is a relative path to a .js/.mjs/.cjs file inside the job folder, never outside it. */
export function parseEntry(entry: string): string {
  const normal = path.posix.normalize(entry.replace(/\\/g, "/"));
  if (
    path.posix.isAbsolute(normal) ||
    normal.startsWith("..") ||
    normal.startsWith(".openvibe") ||
    !/\.(c|m)?js$/.test(normal)
  ) {
    throw new LinkError(
      "link.exec.entry_invalid",
      `The entry ${JSON.stringify(entry)} must be a .js file inside the tool folder.`,
    );
  }
  return normal;
}
