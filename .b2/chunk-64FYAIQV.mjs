import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/clock.ts
function sleep(ms, signal) {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener("abort", done, { once: true });
  });
}
var systemClock = { now: () => Date.now(), sleep };
function isoNow(clock = systemClock) {
  const ms = clock.now();
  if (ms !== lastIso.ms) {
    lastIso.ms = ms;
    lastIso.text = new Date(ms).toISOString();
  }
  return lastIso.text;
}
var lastIso = { ms: NaN, text: "" };

export {
  sleep,
  systemClock,
  isoNow
};
//# sourceMappingURL=chunk-64FYAIQV.mjs.map
