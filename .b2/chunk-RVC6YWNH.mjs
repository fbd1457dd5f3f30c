import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  AuthError
} from "./chunk-CZMGSLWJ.mjs";
import {
  ResqError
} from "./chunk-4EMWZ36I.mjs";

// src/cli/exit-codes.ts
var EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  held: 3,
  /** `resq score --fail-under R`: a scorer's pass rate is under R. */
  belowPassRate: 4,
  interrupted: 130
};
function exitCodeForError(err) {
  if (err instanceof AuthError) return EXIT.usage;
  if (err instanceof ResqError) {
    if (err.code === "RESQ_INPUT" || err.code === "RESQ_CONFIG" || err.code === "RESQ_USAGE" || err.code === "RESQ_ALREADY_ANSWERED" || err.code === "RESQ_PAUSE_MOVED" || err.code === "RESQ_OVER_BUDGET") return EXIT.usage;
    return EXIT.failed;
  }
  return EXIT.failed;
}
function exitCodeForCounts(counts) {
  if (counts.failed + counts.error + counts.cancelled > 0) return EXIT.failed;
  const unfinished = counts.queued + counts.submitting + counts.running + counts.waiting;
  if (counts.held > 0) return EXIT.held;
  if (unfinished > 0) return EXIT.failed;
  return EXIT.ok;
}
function exitCodeForRun(r, o = {}) {
  if (r.fatal) return exitCodeForError(r.fatal);
  if (r.interrupted) return EXIT.interrupted;
  if (r.stalled > 0) return EXIT.failed;
  return exitCodeForCounts(o.limited ? { ...r.counts, queued: 0 } : r.counts);
}

export {
  EXIT,
  exitCodeForError,
  exitCodeForRun
};
//# sourceMappingURL=chunk-RVC6YWNH.mjs.map
