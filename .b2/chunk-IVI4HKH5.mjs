import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/local-process.ts
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
var bootIdRead;
function bootId() {
  if (bootIdRead === void 0) {
    try {
      bootIdRead = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || null;
    } catch {
      bootIdRead = null;
    }
  }
  return bootIdRead;
}
function processStart(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  const boot = bootId();
  if (boot === null) return null;
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  const start = stat.slice(stat.lastIndexOf(")") + 1).trim().split(/\s+/)[19];
  return start !== void 0 && /^\d+$/.test(start) ? `${boot}:${start}` : null;
}
function localProcessAlive(pid, pidStart) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    if (e.code !== "EPERM") return false;
  }
  if (pidStart === null) return true;
  const now = processStart(pid);
  return now === null || now === pidStart;
}
function isGoneHere(w, host = hostname()) {
  return w.host === host && !localProcessAlive(w.pid, w.pidStart);
}

export {
  processStart,
  isGoneHere
};
//# sourceMappingURL=chunk-IVI4HKH5.mjs.map
