// Where `npm start` listens and what that allows: loopback unless HOST says otherwise, the demo
// sign-in shown and the local Link started only when the site stays on this machine.
import { describe, expect, it } from "vitest";
import { listenPlan } from "./start.mjs";

describe("listenPlan", () => {
  it("listens on 127.0.0.1 by default, shows the demo sign-in and runs the local Link", () => {
    expect(listenPlan({}, [])).toMatchObject({
      host: "127.0.0.1",
      port: 3000,
      appUrl: "http://localhost:3000",
      loopbackListener: true,
      showDemoSignIn: true,
      link: "on",
    });
  });

  it("--no-link skips the local Link and nothing else", () => {
    expect(listenPlan({}, ["--no-link"])).toMatchObject({ showDemoSignIn: true, link: "off (--no-link)" });
    expect(listenPlan({}, ["--dev", "--no-link"])).toMatchObject({ dev: true, link: "off (--no-link)" });
  });

  it("HOST opens the listener: no demo password printed, no local Link", () => {
    expect(listenPlan({ HOST: "0.0.0.0" }, [])).toMatchObject({
      host: "0.0.0.0",
      loopbackListener: false,
      showDemoSignIn: false,
      link: "off (the site is not on loopback only)",
    });
    expect(listenPlan({ HOST: "::1", PORT: "3100" }, [])).toMatchObject({
      loopbackListener: true,
      link: "on",
      port: 3100,
    });
  });

  it("a production APP_URL never gets a local Link or the demo sign-in, even on a loopback listener", () => {
    expect(listenPlan({ APP_URL: "https://skills.example.com" }, [])).toMatchObject({
      host: "127.0.0.1",
      loopbackListener: true,
      showDemoSignIn: false,
      link: "off (the site is not on loopback only)",
    });
  });

  it("refuses an unknown option and a bad port with the fix", () => {
    expect(() => listenPlan({}, ["--nolink"])).toThrow(/Unknown option --nolink\. usage: npm start \[-- --no-link\]/);
    expect(() => listenPlan({ PORT: "http" }, [])).toThrow(/PORT must be a port number/);
  });
});
