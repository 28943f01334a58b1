"use client";

import { useRef } from "react";
import { useCopy } from "@/components/use-copy";
import { connectionSnippets } from "@/lib/mcp/snippets";
import styles from "./agents.module.css";

function Snippet({ id, label, hint, text }: { id: string; label: string; hint?: string; text: string }) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const { copied, copy } = useCopy(ref);
  const lines = text.split("\n").length;
  return (
    <div className={styles.snippet}>
      <div className={styles.snippetHead}>
        <label htmlFor={id}>{label}</label>
        <button type="button" className="button button-quiet" onClick={() => copy(text)} aria-label={`Copy: ${label}`}>
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      {hint ? <p className="hint">{hint}</p> : null}
      <textarea
        id={id}
        ref={ref}
        className={`mono ${styles.snippetText}`}
        readOnly
        rows={Math.min(lines, 14)}
        value={text}
        spellCheck={false}
        onFocus={(e) => e.currentTarget.select()}
      />
    </div>
  );
}

/** How to connect an MCP client as this agent: by URL (OAuth), or with its token in a config. */
export function McpSnippets({ idPrefix, appUrl, token }: { idPrefix: string; appUrl: string; token?: string }) {
  const s = connectionSnippets(appUrl, token);
  const where = token ? "This agent's token is filled in." : "Replace ova_PASTE_THIS_AGENTS_TOKEN with the agent's token (shown once, when you created it).";
  return (
    <div className={styles.snippets}>
      <Snippet
        id={`${idPrefix}-url`}
        label="MCP server URL"
        hint="Clients that sign in (Claude's custom connectors, VS Code, Cursor) need only this: they open OpenVibe and you choose the agent."
        text={s.serverUrl}
      />
      <Snippet id={`${idPrefix}-claude`} label="Claude Desktop (claude_desktop_config.json)" hint={`Runs the openvibe stdio bridge. ${where}`} text={s.claudeDesktop} />
      <Snippet id={`${idPrefix}-vscode`} label="VS Code (.vscode/mcp.json)" hint="VS Code asks for the token once and keeps it in its secret storage." text={s.vscode} />
      <Snippet id={`${idPrefix}-cursor`} label="Cursor (~/.cursor/mcp.json)" hint={where} text={s.cursor} />
      <Snippet id={`${idPrefix}-stdio`} label="Any client that launches a local server (stdio)" text={s.stdio} />
    </div>
  );
}
