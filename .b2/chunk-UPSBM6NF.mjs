import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  InputError
} from "./chunk-4EMWZ36I.mjs";
import {
  escapeControls
} from "./chunk-E7YGSVGC.mjs";

// src/tables/file-chunks.ts
import { createHash } from "node:crypto";
import { open } from "node:fs/promises";
var CHUNK_BYTES = 256 * 1024;
async function* fileChunks(path, tap) {
  const handle = await openFile(path);
  const stream = handle.createReadStream({ autoClose: false, highWaterMark: CHUNK_BYTES, start: 0 });
  try {
    for await (const chunk of stream) {
      tap?.hash.update(chunk);
      yield chunk;
    }
    if (tap) tap.complete = true;
  } finally {
    stream.destroy();
    await handle.close();
  }
}
async function openFile(path) {
  let handle;
  try {
    handle = await open(path, "r");
  } catch (err) {
    throw new InputError([{ file: escapeControls(path), reason: `cannot open: ${escapeControls(describeFsError(err))}` }], { cause: err });
  }
  const stat = await handle.stat();
  if (!stat.isFile()) {
    await handle.close();
    throw new InputError([{ file: escapeControls(path), reason: "not a regular file" }]);
  }
  return handle;
}
function describeFsError(err) {
  const code = err.code;
  if (code === "ENOENT") return "no such file";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "is a directory";
  return err instanceof Error ? err.message : String(err);
}
async function hashFile(path) {
  const hash = createHash("sha256");
  for await (const chunk of fileChunks(path)) hash.update(chunk);
  return hash.digest("hex");
}

export {
  fileChunks,
  hashFile
};
//# sourceMappingURL=chunk-UPSBM6NF.mjs.map
