// Builds .zip and .tar.gz archives byte by byte for tests, including hostile ones (traversal,
// links, lying headers, bombs) that ordinary archivers refuse to make.
import { crc32, deflateRawSync, gzipSync } from "node:zlib";

export type ZipEntry = {
  name: string;
  data?: Buffer | string;
  /** Unix mode including file type bits, e.g. 0o120777 for a symlink. */
  mode?: number;
  store?: boolean;
  /** Override the uncompressed size written in the headers. */
  declaredSize?: number;
  /** Override the CRC-32 written in the headers. */
  crc?: number;
  /** General purpose flags (bit 0: encrypted). */
  flags?: number;
};

export function makeZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const raw = Buffer.from(e.data ?? "");
    const body = e.store ? raw : deflateRawSync(raw);
    const name = Buffer.from(e.name, "utf8");
    const size = e.declaredSize ?? raw.length;
    const crc = e.crc ?? crc32(raw);
    const method = e.store ? 0 : 8;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.flags ?? 0, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(e.flags ?? 0, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((e.mode ?? (e.name.endsWith("/") ? 0o040755 : 0o100644)) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

export type TarEntry = {
  name: string;
  data?: Buffer | string;
  type?: "0" | "1" | "2" | "3" | "5";
  linkName?: string;
  /** pax extended header records (path, linkpath, …) written before the entry. */
  pax?: Record<string, string>;
};

/** One pax record: "<length> <key>=<value>\n", the length counting itself. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let len = Buffer.byteLength(body);
  len += String(len).length;
  if (String(len).length !== String(len - String(len - 1).length).length) len++;
  return `${len}${body}`;
}

export function makeTarGz(entries: TarEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const data = Buffer.from(e.data ?? "");
    if (e.pax) {
      const records = Buffer.from(
        Object.entries(e.pax)
          .map(([k, v]) => paxRecord(k, v))
          .join(""),
      );
      blocks.push(tarHeader("PaxHeader", records.length, "x"), pad(records));
    }
    if (Buffer.byteLength(e.name) > 100) {
      blocks.push(tarHeader("././@LongLink", Buffer.byteLength(e.name) + 1, "L"), pad(Buffer.from(e.name + "\0")));
    }
    blocks.push(tarHeader(e.name.slice(0, 100), e.type === "5" ? 0 : data.length, e.type ?? "0", e.linkName));
    if (e.type !== "5" && data.length) blocks.push(pad(data));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

function tarHeader(name: string, size: number, type: string, linkName = ""): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 100, "utf8");
  h.write("0000644\0", 100, "latin1");
  h.write("0000000\0", 108, "latin1");
  h.write("0000000\0", 116, "latin1");
  h.write(size.toString(8).padStart(11, "0") + "\0", 124, "latin1");
  h.write("00000000000\0", 136, "latin1");
  h.write("        ", 148, "latin1");
  h.write(type, 156, "latin1");
  h.write(linkName, 157, 100, "utf8");
  h.write("ustar\0", 257, "latin1");
  h.write("00", 263, "latin1");
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, "latin1");
  return h;
}

function pad(b: Buffer): Buffer {
  const rest = b.length % 512;
  return rest === 0 ? b : Buffer.concat([b, Buffer.alloc(512 - rest)]);
}
