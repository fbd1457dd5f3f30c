import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/store/common/run-times.ts
function runTimes(run) {
  return { serviceSeconds: run.serviceSeconds ?? null, unwatched: run.unwatched === true };
}
function chainSeconds(times) {
  let ms = 0;
  let ended = 0;
  for (const t of times) {
    if (!t.finishedAt) continue;
    if (t.seconds === null) return null;
    ms += Math.round(t.seconds * 1e3);
    ended++;
  }
  return ended === 0 ? null : ms / 1e3;
}

export {
  runTimes,
  chainSeconds
};
//# sourceMappingURL=chunk-UM7NX3RY.mjs.map
