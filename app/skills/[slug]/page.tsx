import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { loadSkillPage } from "@/lib/registry/skill-page";
import { SkillView } from "../_components/skill-view";

type Props = { params: Promise<{ slug: string }> };

// Metadata and page read the same data: once per request.
const load = cache((slug: string) => loadSkillPage(slug));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const data = await load((await params).slug);
  return data ? { title: data.version.name, description: data.version.summary } : { title: "Not found" };
}

export default async function SkillPage({ params }: Props) {
  const data = await load((await params).slug);
  if (!data) notFound();
  return <SkillView data={data} />;
}
