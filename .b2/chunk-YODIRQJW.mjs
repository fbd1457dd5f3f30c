import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  InputError
} from "./chunk-4EMWZ36I.mjs";

// src/cli/durations.ts
function parseDuration(flag, text, allowOff) {
  const t = text.trim().toLowerCase();
  if (allowOff && (t === "off" || t === "0" || t === "never")) return null;
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/.exec(t);
  const unit = { ms: 1, s: 1e3, m: 6e4, h: 36e5, d: 864e5 }[m?.[2] ?? "s"] ?? 1e3;
  const ms = m ? Math.round(Number(m[1]) * unit) : NaN;
  if (!Number.isFinite(ms) || ms <= 0)
    throw new InputError(`--${flag}: expected a duration such as 90s, 5m or 1h${allowOff ? " (or off)" : ""}, got "${text}"`);
  return ms;
}

export {
  parseDuration
};
//# sourceMappingURL=chunk-YODIRQJW.mjs.map
