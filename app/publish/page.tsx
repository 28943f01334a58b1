import Link from "next/link";
import { requireUser } from "@/lib/auth";
import { PublishClient } from "./page-client";

export const metadata = { title: "Publish a skill" };

export default async function PublishPage() {
  const user = await requireUser("/publish");
  return (
    <>
      <h1>Publish a skill</h1>
      <p className="lead">
        Drop your skill&apos;s folder, or a .zip or .tar.gz of it. We check every rule at once and list each problem with where it
        is; when there are none, publish. Code is scanned right after publishing.
      </p>
      <p className="muted">
        Publishing as <span className="mono">@{user.handle}</span>. The folder needs a <code>skill.json</code>; the same upload
        works from the command line with <code>openvibe publish</code>. Your published skills are under{" "}
        <Link href="/dashboard/authored">Your skills</Link>.
      </p>
      <PublishClient />
    </>
  );
}
