"use client";
// Copying a secret or command shown once: to the clipboard, or — when the browser refuses
// clipboard access (permissions, plain http) — by selecting the field so Ctrl+C works.
import { useState, type RefObject } from "react";

export function useCopy(fallback: RefObject<HTMLInputElement | HTMLTextAreaElement | null>) {
  const [copied, setCopied] = useState(false);
  async function copy(text: string | null | undefined) {
    if (!text) return;
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      fallback.current?.select();
    }
  }
  return { copied, copy, reset: () => setCopied(false) };
}
