import Link from "next/link";

/** A dashboard page's trail back to the dashboard, and its heading. */
export function DashboardTitle({ title }: { title: string }) {
  return (
    <>
      <p className="breadcrumb">
        <Link href="/dashboard">Dashboard</Link> / {title}
      </p>
      <h1>{title}</h1>
    </>
  );
}
