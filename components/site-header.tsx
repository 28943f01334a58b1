import Link from "next/link";
import type { SessionUser } from "@/lib/auth";
import { SignOutButton } from "./sign-out-button";

export function SiteHeader({ user }: { user: SessionUser | null }) {
  return (
    <header className="site-header">
      <div className="container site-header-inner">
        <Link href="/" className="logo">
          <span className="logo-mark" aria-hidden="true">
            ◆
          </span>
          OpenVibe Skills
        </Link>
        <form action="/" method="get" role="search" className="site-search">
          <label htmlFor="site-search-q" className="visually-hidden">
            Search skills
          </label>
          <input id="site-search-q" name="q" type="search" placeholder="Search skills" maxLength={100} />
          <button type="submit" className="button">
            Search
          </button>
        </form>
        <nav aria-label="Main" className="site-nav">
          <Link href="/">Browse</Link>
          <Link href="/publish">Publish</Link>
          <Link href="/dashboard">Dashboard</Link>
        </nav>
        <div className="site-account">
          {user ? (
            <>
              <span className="site-account-name" title={`@${user.handle}`}>
                {user.name}
              </span>
              <SignOutButton />
            </>
          ) : (
            <>
              <Link href="/signin" className="button button-quiet">
                Sign in
              </Link>
              <Link href="/signup" className="button button-primary">
                Sign up
              </Link>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
