import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  isDiskFull
} from "./chunk-7GICCHH3.mjs";
import {
  cannotReachMessage
} from "./chunk-YHPNXTWT.mjs";
import {
  AuthError,
  NetworkError
} from "./chunk-CZMGSLWJ.mjs";
import {
  poolerHint
} from "./chunk-KD7OSFDT.mjs";
import {
  oneLine
} from "./chunk-5GEFFECR.mjs";
import {
  maskLocation
} from "./chunk-755LHRXT.mjs";

// src/cli/disk-full.ts
function diskFullMessage(err, where = {}) {
  const said = oneLine(err instanceof Error ? err.message : String(err), 120);
  const db = where.db ? `the database ${maskLocation(where.db)}` : "the database";
  if (where.resume)
    return `${db} is on a full disk (${said}): nothing was lost, the items stay queued or in flight as stored; free some space, then: ${where.resume}`;
  return `${db} is on a full disk (${said}): nothing was lost, the write that failed was not kept; free some space, then run the same command again`;
}

// src/cli/error-message.ts
function userMessage(err, where = {}) {
  if (isDiskFull(err)) return diskFullMessage(err, where);
  if (err instanceof NetworkError && err.phase === "connect") {
    return cannotReachMessage(err.service ?? "the service", err.causeCode);
  }
  if (err instanceof AuthError)
    return `the service refused the API key (HTTP ${err.status} ${err.method} ${err.path}): check RESQ_API_KEY`;
  const msg = err instanceof Error ? err.message : String(err);
  const hint = poolerHint(err);
  return hint ? `${msg}: ${hint}` : msg;
}

export {
  userMessage
};
//# sourceMappingURL=chunk-ELXTCS3C.mjs.map
