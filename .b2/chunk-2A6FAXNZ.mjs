import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  external_exports
} from "./chunk-UUEOY5IK.mjs";

// src/score/scorer-specs.ts
import { createHash } from "node:crypto";
var nonEmpty = external_exports.string().trim().min(1);
var globs = external_exports.array(nonEmpty).min(1);
var SETTINGS = {
  includes: external_exports.strictObject({}),
  exact: external_exports.strictObject({}),
  regex: external_exports.strictObject({
    pattern: external_exports.string().min(1).refine(compiles, { message: "not a valid regular expression" }),
    /** Regular expression flags, of `i`, `m`, `s` and `u`. */
    flags: external_exports.string().regex(/^[imsu]*$/, { message: "must be made of the flags i, m, s and u" }).default("")
  }),
  number: external_exports.strictObject({ tolerance: external_exports.number().min(0).default(0) }),
  files: external_exports.strictObject({ names: globs.optional(), roles: globs.optional() }).refine((s) => s.names !== void 0 || s.roles !== void 0, { message: "give `names` (globs) or `roles`" }),
  json: external_exports.strictObject({ path: external_exports.string().regex(/^\$?[^\s]*$/, { message: "must be a path like `result.total` or `items[0].name`" }) }),
  command: external_exports.strictObject({
    command: nonEmpty,
    /** Seconds the program may take for one item. */
    timeout_seconds: external_exports.number().positive().max(3600).default(30)
  }),
  agent: external_exports.strictObject({ rubric: nonEmpty })
};
var NAME = /^[A-Za-z0-9_-]{1,64}$/;
var KINDS = Object.keys(SETTINGS);
function compiles(pattern) {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}
function canonicalJson(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.keys(value).sort().filter((k) => value[k] !== void 0).map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(",")}}`;
  return JSON.stringify(value);
}
function scorerVersion(kind, settings) {
  return createHash("sha256").update(canonicalJson({ kind, settings })).digest("hex").slice(0, 16);
}
var VERSION = /^[A-Za-z0-9]{1,64}$/;
function scorersForStore(specs) {
  return specs.map((s) => {
    if (s.kind !== "command") return s;
    const { command: _program, ...rest } = s.settings;
    return { ...s, settings: rest };
  });
}
function scorersFromStore(stored) {
  if (!Array.isArray(stored)) return void 0;
  const out = [];
  for (const e of stored) {
    if (e === null || typeof e !== "object") continue;
    const { name, kind, version, settings } = e;
    if (typeof name !== "string" || !NAME.test(name) || typeof version !== "string" || !VERSION.test(version)) continue;
    if (typeof kind !== "string" || !KINDS.includes(kind) || settings === null || typeof settings !== "object") continue;
    if (kind === "command") {
      const t = settings.timeout_seconds;
      const ok = SETTINGS.command.shape.timeout_seconds.safeParse(t);
      if (ok.success) out.push({ name, kind, version, settings: { timeout_seconds: ok.data } });
      continue;
    }
    const parsed = SETTINGS[kind].safeParse(settings);
    if (parsed.success) out.push({ name, kind, version, settings: parsed.data });
  }
  return out;
}

export {
  SETTINGS,
  NAME,
  KINDS,
  canonicalJson,
  scorerVersion,
  scorersForStore,
  scorersFromStore
};
//# sourceMappingURL=chunk-2A6FAXNZ.mjs.map
