import Link from "next/link";

export default function RunNotFound() {
  return (
    <section className="panel narrow">
      <h1>We could not find that run</h1>
      <p>It may not exist, or it belongs to someone else.</p>
      <p>
        <Link href="/dashboard/approvals" className="button button-primary">
          Back to approvals
        </Link>
      </p>
    </section>
  );
}
