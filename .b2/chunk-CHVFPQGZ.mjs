import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  hashFile
} from "./chunk-UPSBM6NF.mjs";
import {
  InputError
} from "./chunk-4EMWZ36I.mjs";
import {
  commandHint
} from "./chunk-BXVQVF7L.mjs";
import {
  escapeControls
} from "./chunk-E7YGSVGC.mjs";

// src/runner/batch-source.ts
import { basename, extname } from "node:path";
function defaultBatchName(questionsPath) {
  const base = basename(questionsPath);
  return base.slice(0, base.length - extname(base).length) || base;
}
var SourceChangedError = class extends InputError {
  /** The batch whose question set no longer matches (a caller says whether it came from another file). */
  batch;
  /** The command the message suggests to run only the added rows (`resq run FILE --append`, as words), or null; a caller may add the flags it needs. */
  appendArgv;
  constructor(message, batch, appendArgv = null) {
    super(message);
    this.batch = batch;
    this.appendArgv = appendArgv;
  }
};
async function checkUnchanged(batch, questionsPath) {
  const sha = await hashFile(questionsPath);
  const append = batch.kind === "runs" ? ["resq", "run", questionsPath, "--append"] : null;
  if (sha !== batch.sourceSha256)
    throw new SourceChangedError(
      `${escapeControls(questionsPath)}: the question set changed since batch "${escapeControls(batch.name)}" was started (sha256 ${batch.sourceSha256.slice(0, 12)}\u2026 then, ${sha.slice(0, 12)}\u2026 now). Restore the original file to resume it, or start a new batch with --batch NEW_NAME` + (append ? `; if you only added rows, this runs the new ones: ${commandHint(append)}` : "."),
      batch,
      append
    );
}

export {
  defaultBatchName,
  SourceChangedError,
  checkUnchanged
};
//# sourceMappingURL=chunk-CHVFPQGZ.mjs.map
