// Signed notes and checkpoints. Known answers from Go's golang.org/x/mod/sumdb/note
// (github.com/golang/mod, sumdb/note/note_test.go at commit 02c991387e35f9e4c0a9b7ce137717055f8d716d):
// the PeterNeumann key pair and its signature of a two-line text. Ed25519 is deterministic, so the
// same key over the same text must give exactly that signature line.
import { describe, expect, it } from "vitest";
import {
  formatCheckpoint,
  generateSignerKey,
  keyIdOf,
  NoteError,
  openNote,
  parseCheckpoint,
  parseSignerKey,
  parseVerifierKey,
  signNote,
} from "./note";

const SKEY = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz";
const VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW";
const ENOCH = "EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop";
const TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const PETER_SIG =
  "— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n";
const ENOCH_SIG =
  "— EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n";

describe("note keys", () => {
  it("reads the Go test keys and derives the same key id and verifier key", () => {
    const signer = parseSignerKey(SKEY);
    expect(signer.name).toBe("PeterNeumann");
    expect(signer.keyId).toBe(0xc74f20a3);
    expect(signer.vkey).toBe(VKEY);
    const verifier = parseVerifierKey(VKEY);
    expect(keyIdOf(verifier.name, verifier.publicKey)).toBe(0xc74f20a3);
  });

  it("refuses mangled keys", () => {
    for (let i = 0; i < VKEY.length; i++) {
      const changed = VKEY.slice(0, i) + String.fromCharCode(VKEY.charCodeAt(i) + 1) + VKEY.slice(i + 1);
      expect(() => parseVerifierKey(changed), changed).toThrow(NoteError);
    }
    expect(() => parseVerifierKey(VKEY.slice(0, -4))).toThrow(NoteError);
    expect(() => parseVerifierKey("PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW")).toThrow(
      NoteError,
    );
    expect(() => parseSignerKey(SKEY.replace("c74f20a3", "c74f20a4"))).toThrow(NoteError);
    expect(() => parseSignerKey(SKEY.slice("PRIVATE+KEY+".length))).toThrow(NoteError);
  });

  it("generates key pairs whose signatures verify", () => {
    const { skey, vkey } = generateSignerKey("example.test/log");
    const note = signNote("hello\n", parseSignerKey(skey));
    expect(openNote(note, parseVerifierKey(vkey))).toBe("hello\n");
    expect(() => generateSignerKey("bad name")).toThrow(NoteError);
  });
});

describe("signed notes", () => {
  it("signs the Go test text exactly as Go does", () => {
    expect(signNote(TEXT, parseSignerKey(SKEY))).toBe(`${TEXT}\n${PETER_SIG}`);
  });

  it("opens a note signed by the key, ignoring signatures by keys it does not know", () => {
    const peter = parseVerifierKey(VKEY);
    expect(openNote(`${TEXT}\n${PETER_SIG}${ENOCH_SIG}`, peter)).toBe(TEXT);
    expect(openNote(`${TEXT}\n${ENOCH_SIG}${PETER_SIG}`, peter)).toBe(TEXT);
    expect(openNote(`${TEXT}\n${PETER_SIG}`, parseVerifierKey(VKEY))).toBe(TEXT);
    expect(() => openNote(`${TEXT}\n${PETER_SIG}`, parseVerifierKey(ENOCH))).toThrow(/not signed by EnochRoot/);
  });

  it("refuses a changed text, a changed signature and malformed notes", () => {
    const peter = parseVerifierKey(VKEY);
    expect(() => openNote(`${TEXT.replace("answer", "Answer")}\n${PETER_SIG}`, peter)).toThrow(/does not verify/);
    expect(() => openNote(`${TEXT}\n${PETER_SIG.slice(0, 60)}ABCD${PETER_SIG.slice(60)}`, peter)).toThrow(NoteError);
    const bad = [
      TEXT,
      `${TEXT}\n`,
      `${TEXT}\n${PETER_SIG.slice(0, -1)}`,
      `\u0001${TEXT}\n${PETER_SIG}`,
      `${TEXT}\n— Bad Name x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`,
      `${TEXT}\n${PETER_SIG}Unexpected line.\n`,
      `${TEXT}\n${PETER_SIG.repeat(40)}`,
    ];
    for (const note of bad) expect(() => openNote(note, peter), JSON.stringify(note)).toThrow(NoteError);
    expect(() => openNote(Buffer.concat([Buffer.from([0xff]), Buffer.from(`${TEXT}\n${PETER_SIG}`)]), peter)).toThrow(
      /UTF-8/,
    );
  });
});

describe("checkpoints", () => {
  const root = Buffer.from("CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=", "base64");

  it("formats the c2sp.org/tlog-checkpoint body and reads it back, time included", () => {
    const time = new Date("2026-12-01T05:00:07.250Z");
    const text = formatCheckpoint({ origin: "example.com/behind-the-sofa", size: 20852163, rootHash: root, time });
    expect(text).toBe(
      "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\ntime 2026-12-01T05:00:07Z\n",
    );
    expect(parseCheckpoint(text)).toEqual({
      origin: "example.com/behind-the-sofa",
      size: 20852163,
      rootHash: root,
      time: new Date("2026-12-01T05:00:07Z"),
    });
  });

  it("reads the spec's example without extension lines", () => {
    const c = parseCheckpoint("example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n");
    expect(c.size).toBe(20852163);
    expect(c.time).toBeNull();
  });

  it("refuses leading zeros, a short root, non-canonical base64 and empty extension lines", () => {
    const b64 = root.toString("base64");
    for (const text of [
      `o\n020\n${b64}\n`,
      `o\n-1\n${b64}\n`,
      `o\n1\n${root.subarray(1).toString("base64")}\n`,
      `o\n1\n${b64.replace("=", "")}\n`,
      `o\n1\n${b64}\n\n`,
      `o\n1\n`,
      `\n1\n${b64}\n`,
    ]) {
      expect(() => parseCheckpoint(text), JSON.stringify(text)).toThrow(NoteError);
    }
  });
});
