// C2SP signed notes (c2sp.org/signed-note) with Ed25519 keys, and the checkpoint body they carry
// (c2sp.org/tlog-checkpoint). Keys use the Go sumdb/note text forms, so standard tooling can verify
// OpenVibe's checkpoints:
//   verifier key  <name>+<key id, 8 hex>+<base64(0x01 ‖ 32-byte public key)>
//   signer key    PRIVATE+KEY+<name>+<key id, 8 hex>+<base64(0x01 ‖ 32-byte seed)>
// Pure (node:crypto only): the registry signs with it, the CLI and the Link verify with it.
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  randomBytes,
  sign as edSign,
  verify as edVerify,
  type KeyObject,
} from "node:crypto";
import { HASH_BYTES } from "./hash";

export class NoteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NoteError";
  }
}

const ED25519 = 0x01;
const EM_DASH = "\u2014";
/** A checkpoint is a few hundred bytes; anything far larger is refused before parsing. */
export const MAX_NOTE_BYTES = 16 * 1024;
/** The spec asks verifiers to accept at least 16 signatures. */
const MAX_SIGNATURES = 32;
// Unicode spaces (White_Space) and "+" are not allowed in key names.
const BAD_NAME = /[\s+]/u;
const B64 = /^[A-Za-z0-9+/]*={0,2}$/;
const PKCS8_ED25519 = Buffer.from("302e020100300506032b657004220420", "hex");
const SPKI_ED25519 = Buffer.from("302a300506032b6570032100", "hex");

export type VerifierKey = { name: string; keyId: number; publicKey: Buffer; vkey: string };
export type SignerKey = VerifierKey & { privateKey: KeyObject };

/** Canonical standard base64, or null (no whitespace, no missing padding, no stray bits). */
export function decodeBase64(text: string): Buffer | null {
  if (text.length % 4 !== 0 || !B64.test(text)) return null;
  const bytes = Buffer.from(text, "base64");
  return bytes.toString("base64") === text ? bytes : null;
}

function validName(name: string): boolean {
  return name.length > 0 && name.length <= 256 && !BAD_NAME.test(name) && !/[\u0000-\u001f]/.test(name);
}

/** SHA-256(name ‖ 0x0A ‖ 0x01 ‖ public key)[:4] as a big-endian uint32. */
export function keyIdOf(name: string, publicKey: Uint8Array): number {
  const digest = createHash("sha256")
    .update(name)
    .update(Buffer.from([0x0a, ED25519]))
    .update(publicKey)
    .digest();
  return digest.readUInt32BE(0);
}

const hex8 = (n: number) => n.toString(16).padStart(8, "0");

export function formatVerifierKey(name: string, publicKey: Uint8Array): string {
  if (!validName(name)) throw new NoteError(`"${name}" cannot be a key name`);
  if (publicKey.length !== 32) throw new NoteError("an Ed25519 public key is 32 bytes");
  const typed = Buffer.concat([Buffer.from([ED25519]), publicKey]);
  return `${name}+${hex8(keyIdOf(name, publicKey))}+${typed.toString("base64")}`;
}

function splitKey(text: string, parts: number): string[] {
  const fields = text.split("+");
  // A base64 key may itself contain "+": name and id are the first fields, the key is the rest.
  if (fields.length < parts) throw new NoteError("malformed key");
  return [...fields.slice(0, parts - 1), fields.slice(parts - 1).join("+")];
}

function parseTypedKey(name: string, idHex: string, keyB64: string): { keyId: number; raw: Buffer } {
  if (!validName(name)) throw new NoteError("malformed key: bad name");
  if (!/^[0-9a-f]{8}$/.test(idHex)) throw new NoteError("malformed key: bad key id");
  const typed = decodeBase64(keyB64);
  if (!typed || typed.length !== 33 || typed[0] !== ED25519) throw new NoteError("malformed key: not an Ed25519 key");
  return { keyId: Number.parseInt(idHex, 16), raw: typed.subarray(1) };
}

export function parseVerifierKey(vkey: string): VerifierKey {
  if (vkey.length > 512) throw new NoteError("malformed key");
  const [name, idHex, keyB64] = splitKey(vkey, 3) as [string, string, string];
  const { keyId, raw } = parseTypedKey(name, idHex, keyB64);
  if (keyIdOf(name, raw) !== keyId) throw new NoteError("malformed key: the key id does not match the key");
  return { name, keyId, publicKey: raw, vkey };
}

export function parseSignerKey(skey: string): SignerKey {
  if (skey.length > 512 || !skey.startsWith("PRIVATE+KEY+")) throw new NoteError("malformed signer key");
  const [name, idHex, keyB64] = splitKey(skey.slice("PRIVATE+KEY+".length), 3) as [string, string, string];
  const { keyId, raw: seed } = parseTypedKey(name, idHex, keyB64);
  const privateKey = ed25519PrivateKey(seed);
  const publicKey = publicKeyOfSeed(seed);
  if (keyIdOf(name, publicKey) !== keyId)
    throw new NoteError("malformed signer key: the key id does not match the key");
  return { name, keyId, publicKey, vkey: formatVerifierKey(name, publicKey), privateKey };
}

/** A new key pair for `name`: the signer key (a secret) and its verifier key (public). */
export function generateSignerKey(name: string): { skey: string; vkey: string } {
  if (!validName(name)) throw new NoteError(`"${name}" cannot be a key name`);
  const seed = randomBytes(32);
  const publicKey = publicKeyOfSeed(seed);
  const typed = Buffer.concat([Buffer.from([ED25519]), seed]).toString("base64");
  return {
    skey: `PRIVATE+KEY+${name}+${hex8(keyIdOf(name, publicKey))}+${typed}`,
    vkey: formatVerifierKey(name, publicKey),
  };
}

function ed25519PrivateKey(seed: Buffer): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: "der", type: "pkcs8" });
}

function publicKeyOfSeed(seed: Buffer): Buffer {
  const spki = createPublicKey(ed25519PrivateKey(seed)).export({ format: "der", type: "spki" });
  return Buffer.from(spki.subarray(spki.length - 32));
}

function checkText(text: string) {
  if (!text.endsWith("\n")) throw new NoteError("malformed note: the text must end with a newline");
  if (/[\u0000-\u0009\u000b-\u001f]/.test(text)) throw new NoteError("malformed note: control characters");
}

/** The note with one signature line by `signer` appended. */
export function signNote(text: string, signer: SignerKey): string {
  checkText(text);
  const signature = edSign(null, Buffer.from(text, "utf8"), signer.privateKey);
  const id = Buffer.alloc(4);
  id.writeUInt32BE(signer.keyId);
  return `${text}\n${EM_DASH} ${signer.name} ${Buffer.concat([id, signature]).toString("base64")}\n`;
}

/**
 * The text of a signed note, once a signature by `verifier` is found and checks out. Signatures
 * by other keys are ignored, as the spec requires; a failing signature by this key refuses the note.
 */
export function openNote(note: string | Uint8Array, verifier: VerifierKey): string {
  const bytes = typeof note === "string" ? Buffer.from(note, "utf8") : Buffer.from(note);
  if (bytes.length > MAX_NOTE_BYTES) throw new NoteError("malformed note: too large");
  let str: string;
  try {
    str = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new NoteError("malformed note: not UTF-8");
  }
  if (/[\u0000-\u0009\u000b-\u001f]/.test(str)) throw new NoteError("malformed note: control characters");
  const split = str.lastIndexOf("\n\n");
  if (split < 0 || !str.endsWith("\n")) throw new NoteError("malformed note: no signature block");
  const text = str.slice(0, split + 1);
  const lines = str.slice(split + 2, -1).split("\n");
  if (lines.length > MAX_SIGNATURES) throw new NoteError("malformed note: too many signatures");
  let verified = false;
  for (const line of lines) {
    const m = /^\u2014 (\S+) (\S+)$/u.exec(line);
    if (!m || !validName(m[1]!)) throw new NoteError("malformed note: bad signature line");
    const sig = decodeBase64(m[2]!);
    if (!sig || sig.length < 5) throw new NoteError("malformed note: bad signature encoding");
    if (m[1] !== verifier.name || sig.readUInt32BE(0) !== verifier.keyId) continue;
    const publicKey = createPublicKey({
      key: Buffer.concat([SPKI_ED25519, verifier.publicKey]),
      format: "der",
      type: "spki",
    });
    if (sig.length !== 68 || !edVerify(null, Buffer.from(text, "utf8"), publicKey, sig.subarray(4))) {
      throw new NoteError(`the signature by ${verifier.name} does not verify`);
    }
    verified = true;
  }
  if (!verified) throw new NoteError(`the note is not signed by ${verifier.name}+${hex8(verifier.keyId)}`);
  return text;
}

export type Checkpoint = { origin: string; size: number; rootHash: Buffer; time: Date | null };

/** A checkpoint's note text; the signing time goes in one extension line `time <RFC 3339, UTC>`. */
export function formatCheckpoint(c: Checkpoint): string {
  if (!validName(c.origin)) throw new NoteError("bad origin");
  if (!Number.isSafeInteger(c.size) || c.size < 0) throw new NoteError("bad tree size");
  if (c.rootHash.length !== HASH_BYTES) throw new NoteError("bad root hash");
  const time = c.time ? `time ${c.time.toISOString().replace(/\.\d{3}Z$/, "Z")}\n` : "";
  return `${c.origin}\n${c.size}\n${c.rootHash.toString("base64")}\n${time}`;
}

export function parseCheckpoint(text: string): Checkpoint {
  checkText(text);
  const lines = text.slice(0, -1).split("\n");
  if (lines.length < 3) throw new NoteError("malformed checkpoint: fewer than three lines");
  const [origin, sizeText, rootText, ...extensions] = lines as [string, string, string, ...string[]];
  if (!origin) throw new NoteError("malformed checkpoint: empty origin");
  if (!/^(0|[1-9][0-9]{0,15})$/.test(sizeText) || !Number.isSafeInteger(Number(sizeText))) {
    throw new NoteError("malformed checkpoint: bad tree size");
  }
  const rootHash = decodeBase64(rootText);
  if (!rootHash || rootHash.length !== HASH_BYTES) throw new NoteError("malformed checkpoint: bad root hash");
  if (extensions.some((l) => l === "")) throw new NoteError("malformed checkpoint: empty extension line");
  let time: Date | null = null;
  for (const line of extensions) {
    const m = /^time (\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)$/.exec(line);
    if (!m) continue;
    const parsed = new Date(m[1]!);
    if (Number.isNaN(parsed.getTime())) throw new NoteError("malformed checkpoint: bad time");
    time = parsed;
  }
  return { origin, size: Number(sizeText), rootHash, time };
}
