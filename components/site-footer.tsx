import Link from "next/link";

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="container site-footer-inner">
        <p>
          OpenVibe Skills — agent skills whose code runs only in a sandbox on a Link, never on our servers.
        </p>
        <nav aria-label="Footer">
          <Link href="/">Browse skills</Link>
          <Link href="/dashboard/tokens">API tokens</Link>
        </nav>
      </div>
    </footer>
  );
}
