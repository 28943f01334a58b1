"use client";

// Choosing or dropping a bundle, checking it with the API's dry run (every error at once, each
// with its JSON path), then publishing the same bytes. The bundle goes up as the folder's files
// (one multipart part `file` per file, named by its bundle path) or as one `archive` part.
import Link from "next/link";
import { useId, useRef, useState } from "react";
import styles from "./publish.module.css";

type Bundle =
  | { kind: "files"; label: string; files: { path: string; file: File }[]; skipped: string[] }
  | { kind: "archive"; label: string; file: File };

type Problem = { path: string; code: string; message: string };
type Checked = { slug: string; version: string; integrity: string; status: string; created: boolean; url: string; source?: string };

type Phase =
  | { name: "idle" }
  | { name: "reading" }
  | { name: "checking" }
  | { name: "invalid"; code: string; message: string; problems: Problem[] }
  | { name: "ready"; checked: Checked }
  | { name: "publishing"; checked: Checked }
  | { name: "published"; checked: Checked }
  | { name: "failed"; code: string; message: string; problems: Problem[]; checked?: Checked };

const ARCHIVE = /\.(zip|tar\.gz|tgz)$/i;
// Editor and OS clutter (.DS_Store, .git/…) is never part of a bundle: leave it out rather than fail.
const HIDDEN = (path: string) => path.split("/").some((seg) => seg.startsWith("."));

function fromFileList(list: FileList | File[], label: string): Bundle | null {
  const files = [...list];
  if (files.length === 1 && ARCHIVE.test(files[0]!.name) && !files[0]!.webkitRelativePath) {
    return { kind: "archive", label: files[0]!.name, file: files[0]! };
  }
  const picked: { path: string; file: File }[] = [];
  const skipped: string[] = [];
  for (const file of files) {
    const path = file.webkitRelativePath || file.name;
    if (HIDDEN(path)) skipped.push(path);
    else picked.push({ path, file });
  }
  return picked.length ? { kind: "files", label, files: picked, skipped } : null;
}

// Drag-and-drop of a folder: walk the FileSystemEntry tree the browser hands over.
function readEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

async function walk(entry: FileSystemEntry, prefix: string, out: { path: string; file: File }[]): Promise<void> {
  const path = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ path, file });
    return;
  }
  if (entry.isDirectory) {
    const reader = (entry as FileSystemDirectoryEntry).createReader();
    // readEntries hands back at most ~100 entries per call: keep asking until it returns none.
    for (;;) {
      const batch = await readEntries(reader);
      if (!batch.length) break;
      for (const child of batch) await walk(child, path, out);
    }
  }
}

async function fromDrop(dt: DataTransfer): Promise<Bundle | null> {
  const entries = [...dt.items]
    .filter((i) => i.kind === "file")
    .map((i) => i.webkitGetAsEntry?.())
    .filter((e): e is FileSystemEntry => Boolean(e));
  if (entries.length === 1 && entries[0]!.isFile && ARCHIVE.test(entries[0]!.name)) {
    const file = dt.files[0];
    return file ? { kind: "archive", label: file.name, file } : null;
  }
  if (entries.length) {
    const all: { path: string; file: File }[] = [];
    for (const e of entries) await walk(e, "", all);
    const label = entries.length === 1 && entries[0]!.isDirectory ? `${entries[0]!.name}/` : `${all.length} files`;
    const picked = all.filter((f) => !HIDDEN(f.path));
    const skipped = all.filter((f) => HIDDEN(f.path)).map((f) => f.path);
    return picked.length ? { kind: "files", label, files: picked, skipped } : null;
  }
  return dt.files.length ? fromFileList(dt.files, `${dt.files.length} files`) : null;
}

/** The API query: dry run, and the version of a SKILL.md folder whose front matter has none. */
function skillsUrl(dryRun: boolean, version: string): string {
  const q = new URLSearchParams({ ...(dryRun ? { dry_run: "1" } : {}), ...(version ? { version } : {}) });
  return `/api/v1/skills${q.size ? `?${q}` : ""}`;
}

function formOf(bundle: Bundle): FormData {
  const form = new FormData();
  if (bundle.kind === "archive") form.append("archive", bundle.file, bundle.file.name);
  else for (const f of bundle.files) form.append("file", f.file, f.path);
  return form;
}

async function problemOf(res: Response): Promise<{ code: string; message: string; problems: Problem[] }> {
  try {
    const body = (await res.json()) as { error?: { code?: string; message?: string; details?: unknown; requestId?: string } };
    const e = body.error ?? {};
    const problems = Array.isArray(e.details)
      ? e.details.map((d: Partial<Problem>) => ({ path: String(d.path ?? ""), code: String(d.code ?? ""), message: String(d.message ?? "") }))
      : [];
    const message = e.message ?? `The request failed (${res.status}).`;
    return { code: e.code ?? "unknown", message: e.requestId ? `${message} (request id ${e.requestId})` : message, problems };
  } catch {
    return { code: "unknown", message: `The request failed (${res.status}). Try again in a moment.`, problems: [] };
  }
}

const OFFLINE = { code: "network", message: "We could not reach the server. Check your connection and try again.", problems: [] };

export function PublishClient() {
  const [bundle, setBundle] = useState<Bundle | null>(null);
  const [phase, setPhase] = useState<Phase>({ name: "idle" });
  const [dragging, setDragging] = useState(false);
  const folderRef = useRef<HTMLInputElement>(null);
  const archiveRef = useRef<HTMLInputElement>(null);
  const resultRef = useRef<HTMLDivElement>(null);
  const hintId = useId();
  // Only for an Agent Skills folder (SKILL.md) whose front matter states no version.
  const [version, setVersion] = useState("");

  const busy = phase.name === "reading" || phase.name === "checking" || phase.name === "publishing";

  async function check(next: Bundle | null, withVersion = version) {
    if (!next) {
      setBundle(null);
      setPhase({ name: "invalid", code: "bundle.empty", message: "Nothing to publish was found there: choose the skill's folder or an archive.", problems: [] });
      return;
    }
    setBundle(next);
    setPhase({ name: "checking" });
    try {
      const res = await fetch(skillsUrl(true, withVersion), { method: "POST", body: formOf(next) });
      if (res.ok) setPhase({ name: "ready", checked: (await res.json()) as Checked });
      else setPhase({ name: "invalid", ...(await problemOf(res)) });
    } catch {
      setPhase({ name: "invalid", ...OFFLINE });
    }
    resultRef.current?.focus();
  }

  async function publish() {
    if (!bundle || phase.name !== "ready") return;
    const checked = phase.checked;
    setPhase({ name: "publishing", checked });
    try {
      const res = await fetch(skillsUrl(false, version), {
        method: "POST",
        headers: { "idempotency-key": crypto.randomUUID() },
        body: formOf(bundle),
      });
      if (res.ok) setPhase({ name: "published", checked: (await res.json()) as Checked });
      else setPhase({ name: "failed", checked, ...(await problemOf(res)) });
    } catch {
      setPhase({ name: "failed", checked, ...OFFLINE });
    }
    resultRef.current?.focus();
  }

  function reset() {
    setBundle(null);
    setVersion("");
    setPhase({ name: "idle" });
    if (folderRef.current) folderRef.current.value = "";
    if (archiveRef.current) archiveRef.current.value = "";
  }

  return (
    <div className={styles.wrap}>
      <div
        className={`${styles.drop} ${dragging ? styles.dragging : ""}`}
        onDragOver={(e) => {
          e.preventDefault();
          e.dataTransfer.dropEffect = "copy";
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={async (e) => {
          e.preventDefault();
          setDragging(false);
          if (busy) return;
          setPhase({ name: "reading" });
          try {
            await check(await fromDrop(e.dataTransfer));
          } catch {
            setPhase({ name: "invalid", code: "bundle.unreadable", message: "The browser could not read what was dropped. Choose the folder with the button instead.", problems: [] });
          }
        }}
      >
        <p className={styles.dropTitle}>Drop the skill&apos;s folder, or a .zip or .tar.gz, here</p>
        <p className={styles.or} id={hintId}>
          or choose it:
        </p>
        <div className={styles.pickers}>
          <label className="button">
            Choose a folder
            <input
              ref={folderRef}
              type="file"
              className="visually-hidden"
              // React types lack the non-standard folder attributes.
              {...({ webkitdirectory: "", directory: "" } as Record<string, string>)}
              multiple
              disabled={busy}
              aria-describedby={hintId}
              data-testid="folder-input"
              onChange={(e) => e.target.files && check(fromFileList(e.target.files, `${e.target.files[0]?.webkitRelativePath.split("/")[0] ?? "folder"}/`))}
            />
          </label>
          <label className="button">
            Choose an archive
            <input
              ref={archiveRef}
              type="file"
              className="visually-hidden"
              accept=".zip,.tar.gz,.tgz,application/zip,application/gzip"
              disabled={busy}
              aria-describedby={hintId}
              data-testid="archive-input"
              onChange={(e) => {
                const f = e.target.files?.[0];
                if (f) check({ kind: "archive", label: f.name, file: f });
              }}
            />
          </label>
        </div>
      </div>

      <div ref={resultRef} tabIndex={-1} className={styles.result} aria-live="polite">
        {bundle ? (
          <p className={styles.chosen}>
            Chosen: <strong className="mono">{bundle.label}</strong>
            {bundle.kind === "files" ? ` (${bundle.files.length} file${bundle.files.length === 1 ? "" : "s"})` : null}
            {bundle.kind === "files" && bundle.skipped.length ? (
              <span className="muted"> — left out {bundle.skipped.length} hidden file{bundle.skipped.length === 1 ? "" : "s"} ({bundle.skipped.slice(0, 3).join(", ")}{bundle.skipped.length > 3 ? ", …" : ""})</span>
            ) : null}
          </p>
        ) : null}

        {busy ? (
          <p role="status" className={styles.progress}>
            <span className={styles.spinner} aria-hidden="true" />
            {phase.name === "reading" ? "Reading the folder…" : phase.name === "checking" ? "Checking the skill…" : "Publishing…"}
          </p>
        ) : null}

        {phase.name === "invalid" || phase.name === "failed" ? (
          <div role="alert" className={`form-error ${styles.problems}`}>
            <p>
              <strong>{phase.name === "failed" ? "Publishing failed." : "This skill cannot be published yet."}</strong> {phase.message}
            </p>
            {phase.problems.length ? (
              <>
                <p>
                  {phase.problems.length} problem{phase.problems.length === 1 ? "" : "s"} to fix:
                </p>
                <ol className={styles.problemList}>
                  {phase.problems.map((p, i) => (
                    <li key={`${p.path}-${p.code}-${i}`}>
                      <code className={styles.path}>{p.path || "/"}</code> <span>{p.message}</span>{" "}
                      <span className={styles.code}>{p.code}</span>
                    </li>
                  ))}
                </ol>
              </>
            ) : (
              <p className={styles.code}>{phase.code}</p>
            )}
            {phase.problems.some((p) => p.code === "skill_md.version_required" || p.code === "skill_md.version_invalid") && bundle ? (
              <form
                className={styles.versionForm}
                onSubmit={(e) => {
                  e.preventDefault();
                  void check(bundle, version.trim());
                }}
              >
                <label htmlFor="skill-md-version">Version to publish this SKILL.md folder as</label>
                <input
                  id="skill-md-version"
                  name="version"
                  type="text"
                  inputMode="decimal"
                  placeholder="1.0.0"
                  maxLength={64}
                  value={version}
                  onChange={(e) => setVersion(e.target.value)}
                  required
                />
                <button type="submit" className="button button-primary" disabled={busy}>
                  Check with this version
                </button>
              </form>
            ) : (
              <p>Fix them and choose the folder or archive again.</p>
            )}
          </div>
        ) : null}

        {phase.name === "ready" || phase.name === "publishing" ? (
          <div className={`panel ${styles.ready}`}>
            <h2>
              Ready: <span className="mono">{phase.checked.slug}@{phase.checked.version}</span>
            </h2>
            <p>Every rule passed. Publishing stores this exact content (it can never change afterwards) and starts its scan.</p>
            {phase.checked.source === "skill_md" ? (
              <p>Imported from SKILL.md: it publishes as a prompt skill (instructions and resources; nothing runs).</p>
            ) : null}
            <p className={styles.integrity}>
              Integrity <code>{phase.checked.integrity}</code>
            </p>
            <div className="actions">
              <button type="button" className="button button-primary" onClick={publish} disabled={busy}>
                Publish {phase.checked.slug}@{phase.checked.version}
              </button>
              <button type="button" className="button" onClick={reset} disabled={busy}>
                Choose another
              </button>
            </div>
          </div>
        ) : null}

        {phase.name === "published" ? (
          <div role="status" className={`panel ${styles.done}`}>
            <h2>
              {phase.checked.created ? "Published" : "Already published"}:{" "}
              <span className="mono">
                {phase.checked.slug}@{phase.checked.version}
              </span>
            </h2>
            <p>
              {phase.checked.created
                ? "The scan is reading its code now; the skill page shows the verdict when it is done."
                : "Exactly this content was published before, so nothing changed."}
            </p>
            <div className="actions">
              <Link href={`/skills/${phase.checked.slug}/${phase.checked.version}`} className="button button-primary">
                Open the skill page
              </Link>
              <button type="button" className="button" onClick={reset}>
                Publish another
              </button>
            </div>
          </div>
        ) : null}
      </div>
    </div>
  );
}
