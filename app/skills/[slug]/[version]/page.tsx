import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { loadSkillPage } from "@/lib/registry/skill-page";
import { SkillView } from "../../_components/skill-view";

type Props = { params: Promise<{ slug: string; version: string }> };

// A semver never holds "%", so decoding a param that is already decoded changes nothing.
const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

// Metadata and page read the same data: once per request.
const load = cache((slug: string, version: string) => loadSkillPage(slug, decode(version)));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug, version } = await params;
  const data = await load(slug, version);
  return data
    ? { title: `${data.version.name} ${data.version.version}`, description: data.version.summary }
    : { title: "Not found" };
}

export default async function SkillVersionPage({ params }: Props) {
  const { slug, version } = await params;
  const data = await load(slug, version);
  if (!data) notFound();
  return <SkillView data={data} />;
}
