import Link from "next/link";

export const metadata = { title: "Not found" };

export default function NotFound() {
  return (
    <section className="panel narrow">
      <h1>We could not find that page</h1>
      <p>The address may be mistyped, or the page was moved or removed.</p>
      <p>
        <Link href="/" className="button button-primary">
          Browse skills
        </Link>
      </p>
    </section>
  );
}
