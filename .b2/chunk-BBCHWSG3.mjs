import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  ResqError
} from "./chunk-4EMWZ36I.mjs";

// src/files/safe-name.ts
import { createHash } from "node:crypto";
import { isAbsolute, relative, resolve, sep } from "node:path";
var MAX_NAME_BYTES = 200;
var UnsafePathError = class extends ResqError {
  code = "RESQ_UNSAFE_PATH";
};
var UNSAFE = /[<>:"/\\|?*\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
var RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;
var MAX_EXT_BYTES = 16;
var EXTENSIONS = {
  "text/markdown": ".md",
  "text/csv": ".csv",
  "image/png": ".png",
  "image/jpeg": ".jpg",
  "image/svg+xml": ".svg",
  "chemical/x-pdb": ".pdb",
  "application/pdf": ".pdf",
  "application/json": ".json",
  "text/plain": ".txt"
};
function extensionFor(mediaType) {
  const bare = (mediaType ?? "").split(";")[0].trim().toLowerCase();
  return EXTENSIONS[bare] ?? ".bin";
}
function utf8Bytes(s) {
  return Buffer.byteLength(s, "utf8");
}
function cutToBytes(s, max) {
  if (utf8Bytes(s) <= max) return s;
  let out = "";
  let used = 0;
  for (const { segment } of new Intl.Segmenter(void 0, { granularity: "grapheme" }).segment(s)) {
    const n = utf8Bytes(segment);
    if (used + n > max) break;
    out += segment;
    used += n;
  }
  return out;
}
function splitExtension(name) {
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return { stem: name, ext: "" };
  const ext = name.slice(dot);
  if (utf8Bytes(ext) > MAX_EXT_BYTES || /\s/.test(ext) || ext.length < 2) return { stem: name, ext: "" };
  return { stem: name.slice(0, dot), ext };
}
function trimEnds(s) {
  return s.replace(/^[\s.]+/u, "").replace(/[\s.]+$/u, "");
}
function safeSegment(raw, fallback = "file", maxBytes = MAX_NAME_BYTES) {
  const cleaned = clean(raw ?? "", maxBytes);
  if (cleaned !== "") return cleaned;
  const fb = clean(fallback, maxBytes);
  return fb !== "" ? fb : "file";
}
function clean(raw, maxBytes) {
  let s = trimEnds(raw.normalize("NFC").replace(UNSAFE, "_"));
  if (s === "") return "";
  const base = s.split(".")[0];
  if (RESERVED.test(base.trim())) s = `${base}_${s.slice(base.length)}`;
  if (utf8Bytes(s) > maxBytes) {
    const parts = splitExtension(s);
    const room = maxBytes - utf8Bytes(parts.ext);
    s = room >= 8 ? cutToBytes(parts.stem, room) + parts.ext : cutToBytes(s, maxBytes);
    s = trimEnds(s);
  }
  return s;
}
function safeFolderName(raw, fallback) {
  const safe = safeSegment(raw, fallback, MAX_NAME_BYTES - 9);
  if (safe === raw) return safe;
  const tag = createHash("sha256").update(raw, "utf8").digest("hex").slice(0, 8);
  return `${safe}-${tag}`;
}
function batchFolderName(name, id) {
  const short = id.replace(/[^0-9A-Za-z]/g, "").slice(0, 8) || "batch";
  return `${cutToBytes(safeFolderName(name, "batch"), MAX_NAME_BYTES - short.length - 1)}-${short}`;
}
function fileNameFor(name, id, mediaType) {
  const fromId = `${safeSegment(id, "file", MAX_NAME_BYTES - MAX_EXT_BYTES)}${extensionFor(mediaType)}`;
  return safeSegment(name, fromId);
}
function withCollisionSuffix(name, n, maxBytes = MAX_NAME_BYTES) {
  const { stem, ext } = splitExtension(name);
  const tail = ` (${n})${ext}`;
  return `${cutToBytes(stem, maxBytes - utf8Bytes(tail))}${tail}`;
}
function uniqueName(name, isTaken, maxBytes = MAX_NAME_BYTES) {
  if (!isTaken(name)) return name;
  for (let n = 2; ; n++) {
    const candidate = withCollisionSuffix(name, n, maxBytes);
    if (!isTaken(candidate)) return candidate;
  }
}
function isInside(root, target) {
  const rel = relative(resolve(root), resolve(target));
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
function resolveInside(root, ...segments) {
  const target = resolve(root, ...segments);
  if (!isInside(root, target)) throw new UnsafePathError(`refusing to write ${JSON.stringify(target)}: outside ${JSON.stringify(resolve(root))}`);
  return target;
}

export {
  MAX_NAME_BYTES,
  UnsafePathError,
  extensionFor,
  cutToBytes,
  splitExtension,
  safeSegment,
  safeFolderName,
  batchFolderName,
  fileNameFor,
  withCollisionSuffix,
  uniqueName,
  isInside,
  resolveInside
};
//# sourceMappingURL=chunk-BBCHWSG3.mjs.map
