import { crc32 } from 'node:zlib';
import type { FileKind } from './directives.js';
import type { FileRecord } from './records.js';
import { HOSTILE_FILE_NAME, HOSTILE_HTML, HOSTILE_SVG, hostileMarkdown } from './hostile.js';
import { PNG_IEND, PNG_PAD_TYPE, pngBody } from './png.js';
import { hashString } from './rng.js';
import { sequenceFor } from './agent-script.js';

/** Media type served for each kind. */
export const MEDIA_TYPES: Record<FileKind, string> = {
  md: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  png: 'image/png',
  pdb: 'chemical/x-pdb',
  svg: 'image/svg+xml',
  html: 'text/html; charset=utf-8',
};

const BLOCK = 64 * 1024;
const PNG_W = 160;
const PNG_H = 120;

/** Exact number of bytes {@link fileChunks} yields for the file. */
export function fileSize(f: FileRecord): number {
  if (f.sizeBytes === undefined) return natural(f).length;
  if (f.kind === 'png') {
    const min = pngBody(PNG_W, PNG_H, seedOf(f)).length + 12 + PNG_IEND.length;
    return f.sizeBytes < min ? natural(f).length : f.sizeBytes;
  }
  return f.sizeBytes;
}

/**
 * The file's bytes in chunks of at most 64 KiB, generated as they are asked for so that a
 * 1 GB file never sits in memory. Same file, same bytes.
 */
export function* fileChunks(f: FileRecord): Generator<Buffer> {
  const size = fileSize(f);
  if (f.sizeBytes === undefined || size !== f.sizeBytes) {
    yield* split(natural(f));
    return;
  }
  if (f.kind === 'png') {
    yield* paddedPng(f, size);
    return;
  }
  const { head, line } = textParts(f);
  let left = size;
  for (const part of split(Buffer.from(head, 'utf8'))) {
    if (left <= 0) return;
    const piece = part.length <= left ? part : part.subarray(0, left);
    left -= piece.length;
    yield piece;
  }
  const block = repeatLines(line, BLOCK);
  while (left > 0) {
    const piece = block.length <= left ? block : block.subarray(0, left);
    left -= piece.length;
    yield piece;
  }
}

function* paddedPng(f: FileRecord, size: number): Generator<Buffer> {
  const body = pngBody(PNG_W, PNG_H, seedOf(f));
  yield body;
  const padLen = size - body.length - 12 - PNG_IEND.length;
  const head = Buffer.alloc(8);
  head.writeUInt32BE(padLen, 0);
  head.write(PNG_PAD_TYPE, 4, 'latin1');
  yield head;
  let crc = crc32(head.subarray(4));
  const block = Buffer.alloc(BLOCK, 0x2e);
  let left = padLen;
  while (left > 0) {
    const piece = block.length <= left ? block : block.subarray(0, left);
    crc = crc32(piece, crc);
    left -= piece.length;
    yield piece;
  }
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc, 0);
  yield tail;
  yield PNG_IEND;
}

function* split(buf: Buffer): Generator<Buffer> {
  for (let i = 0; i < buf.length; i += BLOCK) yield buf.subarray(i, i + BLOCK);
}

function seedOf(f: FileRecord): number {
  return hashString(f.id);
}

function natural(f: FileRecord): Buffer {
  if (f.kind === 'png') return Buffer.concat([pngBody(PNG_W, PNG_H, seedOf(f)), PNG_IEND]);
  const { head, rows } = textParts(f);
  return Buffer.from(head + rows.join(''), 'utf8');
}

/** The opening of a text file, its realistic rows, and the line repeated to reach a `@size`. */
function textParts(f: FileRecord): { head: string; rows: string[]; line: (i: number) => string } {
  const seed = seedOf(f);
  switch (f.kind) {
    case 'svg':
      return { head: HOSTILE_SVG, rows: [], line: (i) => `<!-- padding ${i} -->\n` };
    case 'html':
      return { head: HOSTILE_HTML, rows: [], line: (i) => `<!-- padding ${i} -->\n` };
    case 'csv': {
      const line = (i: number) => `${i},${sequenceFor(f.residues)[i % f.residues]},${plddt(seed, i).toFixed(2)}\n`;
      return { head: 'index,residue,plddt\n', rows: Array.from({ length: f.residues }, (_, i) => line(i)), line };
    }
    case 'md': {
      const line = (i: number) => `- Finding ${i + 1}: residue ${(i % f.residues) + 1} has pLDDT ${plddt(seed, i).toFixed(1)}.\n`;
      const report = `# Report\n\nSimulated report (file ${f.id}).\n\n## Findings\n\n`;
      // The hostile-named report (`@hostile`) carries the answer's payloads too.
      const head = f.name === HOSTILE_FILE_NAME ? `${report}${hostileMarkdown()}\n\n` : report;
      return { head, rows: [...Array.from({ length: 8 }, (_, i) => line(i)), '\n## Method\n\nSimulated.\n'], line };
    }
    default: {
      const seq = sequenceFor(f.residues);
      const line = (i: number) => atomLine(i, seq[i % seq.length] ?? 'A', seed);
      const head = `HEADER    SIMULATED STRUCTURE                     ${'01-JAN-25'}   SIM1\nTITLE     STRUCTURE ${f.id.slice(0, 40)}\n`;
      const rows = [...Array.from({ length: f.residues }, (_, i) => line(i)), `TER   ${String(f.residues + 1).padStart(5)}\nEND\n`];
      return { head, rows, line };
    }
  }
}

/** Whole lines filling at most `max` bytes, so repeated blocks keep lines intact. */
function repeatLines(line: (i: number) => string, max: number): Buffer {
  let s = '';
  for (let i = 0; ; i++) {
    const next = line(i);
    if (s.length + next.length > max) break;
    s += next;
  }
  return Buffer.from(s, 'utf8');
}

function plddt(seed: number, i: number): number {
  return 50 + (((seed ^ Math.imul(i + 1, 2654435761)) >>> 0) % 4900) / 100;
}

const THREE: Record<string, string> = {
  A: 'ALA', C: 'CYS', D: 'ASP', E: 'GLU', F: 'PHE', G: 'GLY', H: 'HIS', I: 'ILE', K: 'LYS', L: 'LEU',
  M: 'MET', N: 'ASN', P: 'PRO', Q: 'GLN', R: 'ARG', S: 'SER', T: 'THR', V: 'VAL', W: 'TRP', Y: 'TYR',
};

/** A CA-only ATOM record in PDB fixed columns, walking a helix. */
function atomLine(i: number, aa: string, seed: number): string {
  const x = 2.3 * Math.cos(i * 1.745);
  const y = 2.3 * Math.sin(i * 1.745);
  const z = 1.5 * i;
  const serial = String((i % 99_999) + 1).padStart(5);
  const resSeq = String((i % 9_999) + 1).padStart(4);
  const b = plddt(seed, i).toFixed(2).padStart(6);
  return `ATOM  ${serial}  CA  ${THREE[aa] ?? 'ALA'} A${resSeq}    ${x.toFixed(3).padStart(8)}${y.toFixed(3).padStart(8)}${(z % 9999).toFixed(3).padStart(8)}  1.00${b}           C\n`;
}
