import Link from "next/link";
import { requireUser } from "@/lib/auth";
import { listAuthored } from "@/lib/registry/authors";
import { LiveRefresh } from "@/components/live-refresh";
import { AuthoredClient } from "./page-client";
import { DashboardTitle } from "@/components/dashboard-title";

export const metadata = { title: "Your skills" };

export default async function AuthoredPage() {
  const user = await requireUser("/dashboard/authored");
  const skills = await listAuthored(user.userId);
  return (
    <>
      <DashboardTitle title="Your skills" />
      <p>
        Every version you published, with the scan&apos;s verdict. Retiring a version is the way back from a mistake: it
        stays readable, but nobody can install or run it again. Your public page is{" "}
        <Link href={`/authors/${user.handle}`}>/authors/{user.handle}</Link>.
      </p>
      {skills.length === 0 ? (
        <div className="empty">
          <p>You have not published a skill yet.</p>
          <p>
            <Link href="/publish" className="button button-primary">
              Publish a skill
            </Link>
          </p>
        </div>
      ) : (
        // Remounted when a verdict or a retire changes, so a live refresh shows the new state.
        <AuthoredClient
          key={skills
            .flatMap((sk) => sk.versions.map((v) => `${sk.slug}@${v.version}:${v.status}:${v.retiredAt ?? ""}`))
            .join(" ")}
          skills={skills}
        />
      )}
      {skills.some((sk) => sk.versions.some((v) => v.status === "scanning")) ? (
        <LiveRefresh events={["scans"]} />
      ) : null}
    </>
  );
}
