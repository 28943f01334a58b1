import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { EXAMPLE_DIR, EXAMPLE_OUTPUT, exampleSkillFiles, GUIDES } from "@/lib/docs/guides";
import css from "../docs.module.css";

type Props = { params: Promise<{ guide: string }> };

export const dynamicParams = false;
export const generateStaticParams = () => GUIDES.map((g) => ({ guide: g.slug }));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { guide: slug } = await params;
  const guide = GUIDES.find((g) => g.slug === slug);
  return { title: guide?.title ?? "Not found" };
}

export default async function GuidePage({ params }: Props) {
  const { guide: slug } = await params;
  const guide = GUIDES.find((g) => g.slug === slug);
  if (!guide) notFound();
  return (
    <>
      <p className="breadcrumb">
        <Link href="/docs">Docs</Link> / {guide.title}
      </p>
      <h1>{guide.title}</h1>
      <p className="lead">{guide.lead}</p>
      {guide.slug === "publish" && (
        <section className={css.section} aria-labelledby="files">
          <h2 id="files">Write the skill</h2>
          <p>
            Make a folder <code className="mono">{EXAMPLE_DIR}</code> with these files:
          </p>
          {Object.entries(exampleSkillFiles()).map(([name, text]) => (
            <figure key={name}>
              <figcaption className="mono">
                {EXAMPLE_DIR}/{name}
              </figcaption>
              <pre className={css.commands} data-file={name} tabIndex={0} aria-label={`${EXAMPLE_DIR}/${name}`}>
                <code>{text}</code>
              </pre>
            </figure>
          ))}
        </section>
      )}
      <ol>
        {guide.steps.map((s, i) => (
          <li key={s.title} className={css.section}>
            <h2 id={`step-${i + 1}`}>{s.title}</h2>
            <p>{s.text}</p>
            <pre className={css.commands} data-command={i} tabIndex={0} aria-label={`Command for step ${i + 1}`}>
              <code>{s.command}</code>
            </pre>
          </li>
        ))}
      </ol>
      {guide.slug === "publish" && (
        <p>
          The tool prints <code className="mono">{EXAMPLE_OUTPUT}</code>. See also the{" "}
          <Link href="/docs/api">API reference</Link>.
        </p>
      )}
    </>
  );
}
