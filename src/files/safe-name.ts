import { createHash } from 'node:crypto';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { ResqError } from '../errors.js';

/** Longest file or folder name resq writes, in UTF-8 bytes (file systems allow 255; temp names add a suffix). */
export const MAX_NAME_BYTES = 200;

/** A computed path would leave the output folder: refused, never written. */
export class UnsafePathError extends ResqError {
  override readonly code: string = 'RESQ_UNSAFE_PATH';
}

// Separators, Windows-reserved punctuation, C0/C1 controls, Unicode line/paragraph separators,
// bidi overrides (they can disguise an extension), and lone surrogates.
const UNSAFE = /[<>:"/\\|?*\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;
const MAX_EXT_BYTES = 16;

const EXTENSIONS: Record<string, string> = {
  'text/markdown': '.md',
  'text/csv': '.csv',
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/svg+xml': '.svg',
  'chemical/x-pdb': '.pdb',
  'application/pdf': '.pdf',
  'application/json': '.json',
  'text/plain': '.txt',
};

/** File extension (with the dot) for a media type; parameters ignored; unknown → `.bin`. */
export function extensionFor(mediaType: string | null | undefined): string {
  const bare = (mediaType ?? '').split(';')[0]!.trim().toLowerCase();
  return EXTENSIONS[bare] ?? '.bin';
}

function utf8Bytes(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** Cuts `s` to at most `max` UTF-8 bytes on a grapheme boundary (never splits a character). */
export function cutToBytes(s: string, max: number): string {
  if (utf8Bytes(s) <= max) return s;
  let out = '';
  let used = 0;
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s)) {
    const n = utf8Bytes(segment);
    if (used + n > max) break;
    out += segment;
    used += n;
  }
  return out;
}

/** Splits `name` into stem and a short extension (`.csv`); no extension → ''. */
export function splitExtension(name: string): { stem: string; ext: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return { stem: name, ext: '' };
  const ext = name.slice(dot);
  if (utf8Bytes(ext) > MAX_EXT_BYTES || /\s/.test(ext) || ext.length < 2) return { stem: name, ext: '' };
  return { stem: name.slice(0, dot), ext };
}

function trimEnds(s: string): string {
  // Leading dots hide files and `..` climbs; trailing dots and spaces are dropped by Windows.
  return s.replace(/^[\s.]+/u, '').replace(/[\s.]+$/u, '');
}

/**
 * Makes one safe path segment from an untrusted name (a service file name, an item id, a
 * batch name): separators, reserved and control characters become `_`; no leading dots,
 * no trailing dots or spaces; Windows device names get a `_`; at most `maxBytes` UTF-8
 * bytes, cut on a character boundary keeping the extension. Unicode is kept (NFC). An
 * empty result becomes `fallback` (itself sanitised; `file` as a last resort).
 */
export function safeSegment(raw: string | null | undefined, fallback = 'file', maxBytes = MAX_NAME_BYTES): string {
  const cleaned = clean(raw ?? '', maxBytes);
  if (cleaned !== '') return cleaned;
  const fb = clean(fallback, maxBytes);
  return fb !== '' ? fb : 'file';
}

function clean(raw: string, maxBytes: number): string {
  let s = trimEnds(raw.normalize('NFC').replace(UNSAFE, '_'));
  if (s === '') return '';
  const base = s.split('.')[0]!;
  if (RESERVED.test(base.trim())) s = `${base}_${s.slice(base.length)}`;
  if (utf8Bytes(s) > maxBytes) {
    const parts = splitExtension(s);
    const room = maxBytes - utf8Bytes(parts.ext);
    s = room >= 8 ? cutToBytes(parts.stem, room) + parts.ext : cutToBytes(s, maxBytes);
    s = trimEnds(s);
  }
  return s;
}

/**
 * A folder name for a user-given key (batch name, item id). When sanitising changed it, a
 * short hash of the original is appended so that `a/b` and `a_b` do not share a folder.
 */
export function safeFolderName(raw: string, fallback: string): string {
  const safe = safeSegment(raw, fallback, MAX_NAME_BYTES - 9);
  if (safe === raw) return safe;
  const tag = createHash('sha256').update(raw, 'utf8').digest('hex').slice(0, 8);
  return `${safe}-${tag}`;
}

/**
 * The folder of a batch's files under `--out`: its name made safe and the start of its id
 * (`extra-1a2b3c4d`), so batches of one name in two databases never share a folder.
 */
export function batchFolderName(name: string, id: string): string {
  const short = id.replace(/[^0-9A-Za-z]/g, '').slice(0, 8) || 'batch';
  return `${cutToBytes(safeFolderName(name, 'batch'), MAX_NAME_BYTES - short.length - 1)}-${short}`;
}

/** The name to save a file under: the service's name made safe, or `<id><ext from media type>`. */
export function fileNameFor(name: string | null | undefined, id: string, mediaType: string | null | undefined): string {
  const fromId = `${safeSegment(id, 'file', MAX_NAME_BYTES - MAX_EXT_BYTES)}${extensionFor(mediaType)}`;
  return safeSegment(name, fromId);
}

/** `name (n).ext`, still within `maxBytes`. */
export function withCollisionSuffix(name: string, n: number, maxBytes = MAX_NAME_BYTES): string {
  const { stem, ext } = splitExtension(name);
  const tail = ` (${n})${ext}`;
  return `${cutToBytes(stem, maxBytes - utf8Bytes(tail))}${tail}`;
}

/**
 * The first of `name`, `name (2).ext`, `name (3).ext`, … for which `isTaken` is false.
 * Compare case-insensitively in `isTaken`: macOS and Windows folders do.
 */
export function uniqueName(name: string, isTaken: (candidate: string) => boolean, maxBytes = MAX_NAME_BYTES): string {
  if (!isTaken(name)) return name;
  for (let n = 2; ; n++) {
    const candidate = withCollisionSuffix(name, n, maxBytes);
    if (!isTaken(candidate)) return candidate;
  }
}

/** Whether `target` lies strictly inside `root` (both resolved; no symlinks followed). */
export function isInside(root: string, target: string): boolean {
  const rel = relative(resolve(root), resolve(target));
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * Joins segments under `root` and proves the result is inside it: the last line of defence
 * behind {@link safeSegment}. Throws {@link UnsafePathError} otherwise.
 */
export function resolveInside(root: string, ...segments: string[]): string {
  const target = resolve(root, ...segments);
  if (!isInside(root, target)) throw new UnsafePathError(`refusing to write ${JSON.stringify(target)}: outside ${JSON.stringify(resolve(root))}`);
  return target;
}
