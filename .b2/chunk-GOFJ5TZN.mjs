import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/service-choice.ts
var trimmed = (u) => u.replace(/\/+$/, "");
function chooseService(s) {
  const batches = s.batches ?? [];
  const flag = s.baseUrl || null;
  const sim = s.sim ?? (!flag && batches.length > 0 && batches.some((b) => b.settings.service === "sim"));
  if (sim) return { sim: true, baseUrl: null, from: "sim", overrides: null };
  const storedUrls = [...new Set(batches.map((b) => b.baseUrl).filter((u) => !!u))];
  const stored = storedUrls.length === 1 ? storedUrls[0] : s.planned ?? null;
  if (flag) return { sim: false, baseUrl: flag, from: "flag", overrides: null };
  const env = s.envBaseUrl || null;
  if (env) return { sim: false, baseUrl: env, from: "env", overrides: stored && trimmed(env) !== trimmed(stored) ? stored : null };
  if (stored) return { sim: false, baseUrl: stored, from: "stored", overrides: null };
  return { sim: false, baseUrl: null, from: "none", overrides: null };
}
function overrideNote(c) {
  return c.from === "env" && c.overrides && c.baseUrl ? `RESQ_BASE_URL (${c.baseUrl}) is used, not the batch's stored base URL (${c.overrides})` : null;
}

export {
  chooseService,
  overrideNote
};
//# sourceMappingURL=chunk-GOFJ5TZN.mjs.map
