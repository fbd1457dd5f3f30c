import { crc32, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fileChunks, fileSize } from '../../src/sim/file-content.js';
import type { FileRecord } from '../../src/sim/records.js';

const rec = (kind: FileRecord['kind'], sizeBytes?: number): FileRecord => ({
  id: `file_test_${kind}`,
  account: 'alice',
  kind,
  name: undefined,
  sizeBytes,
  residues: 12,
  createdAt: 0,
});

const bytes = (f: FileRecord): Buffer => Buffer.concat([...fileChunks(f)]);

/** Walks the chunks of a PNG, checking every CRC. */
function pngChunks(buf: Buffer): { type: string; data: Buffer }[] {
  expect(buf.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const out: { type: string; data: Buffer }[] = [];
  let p = 8;
  while (p < buf.length) {
    const len = buf.readUInt32BE(p);
    const type = buf.subarray(p + 4, p + 8).toString('latin1');
    const data = buf.subarray(p + 8, p + 8 + len);
    expect(buf.readUInt32BE(p + 8 + len)).toBe(crc32(data, crc32(buf.subarray(p + 4, p + 8))));
    out.push({ type, data });
    p += 12 + len;
  }
  expect(p).toBe(buf.length);
  return out;
}

describe('fileChunks', () => {
  it('makes a valid PNG whose pixels decode', () => {
    const chunks = pngChunks(bytes(rec('png')));
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    const ihdr = chunks[0]!.data;
    const [w, h] = [ihdr.readUInt32BE(0), ihdr.readUInt32BE(4)];
    expect(inflateSync(chunks[1]!.data).length).toBe((w * 3 + 1) * h);
  });

  it('pads a sized PNG with a skippable chunk and stays valid', () => {
    const f = rec('png', 200_000);
    const buf = bytes(f);
    expect(buf.length).toBe(200_000);
    expect(fileSize(f)).toBe(200_000);
    expect(pngChunks(buf).map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'prVt', 'IEND']);
  });

  it('gives the natural PNG when the size is too small for one', () => {
    const f = rec('png', 10);
    expect(fileSize(f)).toBe(bytes(rec('png')).length);
    expect(bytes(f).length).toBe(fileSize(f));
  });

  it('makes PDB text in fixed columns, one ATOM per residue', () => {
    const text = bytes(rec('pdb')).toString();
    const atoms = text.split('\n').filter((l) => l.startsWith('ATOM'));
    expect(atoms).toHaveLength(12);
    for (const a of atoms) {
      expect(a).toHaveLength(78);
      expect(a.slice(12, 16)).toBe(' CA ');
      expect(Number(a.slice(30, 38))).not.toBeNaN();
    }
    expect(text.endsWith('END\n')).toBe(true);
  });

  it('cuts text files to an exact size, in chunks of at most 64 KiB, the same every time', () => {
    for (const kind of ['csv', 'md', 'pdb'] as const) {
      const f = rec(kind, 300_001);
      const chunks = [...fileChunks(f)];
      expect(chunks.every((c) => c.length <= 64 * 1024)).toBe(true);
      const buf = Buffer.concat(chunks);
      expect(buf.length).toBe(300_001);
      expect(bytes(f).equals(buf)).toBe(true);
    }
    expect(bytes(rec('csv', 5)).toString()).toBe('index');
  });

  it('reports the natural size of unsized files', () => {
    for (const kind of ['csv', 'md', 'pdb', 'png'] as const) expect(fileSize(rec(kind))).toBe(bytes(rec(kind)).length);
  });
});
