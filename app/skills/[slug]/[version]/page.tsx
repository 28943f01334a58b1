import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { loadSkillPage } from "@/lib/registry/skill-page";
import { SkillView } from "../../_components/skill-view";
import { decodeParam as decode } from "../../_components/decode-param";

type Props = { params: Promise<{ slug: string; version: string }> };

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
