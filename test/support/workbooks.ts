import * as zlib from 'node:zlib';
import ExcelJS from 'exceljs';
import yauzl from 'yauzl';
import { templateXlsx } from '../../lib/services/templates.ts';

/**
 * Workbooks an attacker builds (docs/security.md#the-second-review-issue-24): the template reaching
 * a far row, and zip files written entry by entry, with sizes that may lie, for zip bombs. Shared by
 * the parser's unit tests and the API fuzz suite's attack seeds.
 */

/** The import template with one more cell, at `row` of column A. */
export async function templateReaching(row: number): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await templateXlsx()) as unknown as ArrayBuffer);
  workbook.worksheets[0]!.getCell(`A${row}`).value = 'x';
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export interface RawEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: 0 | 8;
  data: Buffer;
  crc: number;
  /** The uncompressed size written into both headers (may lie). */
  size: number;
}

/** A zip file of entries whose bytes are already compressed (APPNOTE 4.3: local headers, data, central directory, end record). */
export function zipOf(entries: readonly RawEntry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x0800, 8);
    header.writeUInt16LE(entry.method, 10);
    header.writeUInt16LE(0, 12);
    header.writeUInt16LE(0x21, 14);
    header.writeUInt32LE(entry.crc >>> 0, 16);
    header.writeUInt32LE(entry.data.length, 20);
    header.writeUInt32LE(entry.size, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    parts.push(local, name, entry.data);
    offset += local.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

/** The entries of the import template, recompressed, to build workbooks around. */
export async function templateEntries(): Promise<RawEntry[]> {
  const zip = await yauzl.fromBufferPromise(await templateXlsx(), { lazyEntries: true });
  const entries: RawEntry[] = [];
  for await (const entry of zip.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    entries.push({ name: entry.fileName, method: 8, data: zlib.deflateRawSync(raw), crc: zlib.crc32(raw), size: raw.length });
  }
  return entries;
}

/** An entry of `bytes` times the byte 0, deflated 1 MiB at a time so that the test itself stays small. */
export async function runOfZeros(name: string, bytes: number): Promise<RawEntry> {
  const deflate = zlib.createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  const block = Buffer.alloc(1024 * 1024);
  let crc = 0;
  for (let left = bytes; left > 0; left -= block.length) {
    const piece = left >= block.length ? block : block.subarray(0, left);
    crc = zlib.crc32(piece, crc);
    if (!deflate.write(piece)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return { name, method: 8, data: Buffer.concat(out), crc, size: bytes };
}
