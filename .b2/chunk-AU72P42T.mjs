import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  SECRET_ENV
} from "./chunk-QHE4PU7B.mjs";
import {
  canonicalJson
} from "./chunk-2A6FAXNZ.mjs";
import {
  external_exports
} from "./chunk-UUEOY5IK.mjs";
import {
  isoNow,
  systemClock
} from "./chunk-64FYAIQV.mjs";
import {
  isRawNumber
} from "./chunk-ADUNF5BB.mjs";
import {
  ResqError
} from "./chunk-4EMWZ36I.mjs";

// src/score/judgement.ts
var unscored = (reason) => ({ pass: null, score: null, reason });
var judged = (pass, reason) => ({ pass, score: pass ? 1 : 0, reason });
function verdictOf(spec, j, scoredAt, by) {
  return { scorer: spec.name, version: spec.version, pass: j.pass, score: j.pass === null ? null : j.score, reason: j.reason, scoredAt, by };
}
function judgedBy(spec) {
  return spec.kind === "command" ? `command:${spec.name}` : spec.kind;
}

// src/score/local-scorers.ts
function plain(value) {
  if (isRawNumber(value)) return Number(value.rawJSON);
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}
function expectedText(expected) {
  if (typeof expected === "string") return expected;
  if (typeof expected === "number") return String(expected);
  if (isRawNumber(expected)) return expected.rawJSON;
  return null;
}
var loose = (s) => s.toLowerCase().replace(/\s+/g, " ").trim();
var quote = (s) => JSON.stringify(s.length > 60 ? `${s.slice(0, 57)}...` : s);
function firstNumber(text) {
  const m = /[-+]?(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?|[-+]?\.\d+(?:[eE][-+]?\d+)?/.exec(text);
  if (!m) return null;
  const n = Number(m[0].replace(/,/g, ""));
  return Number.isFinite(n) ? n : null;
}
function globRegExp(glob) {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*") {
      const deep = glob[i + 1] === "*";
      out += deep ? ".*" : "[^/]*";
      if (deep) i++;
    } else if (c === "?") out += "[^/]";
    else out += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`, "i");
}
function valueAt(value, path) {
  const steps = path.replace(/^\$\.?/, "").match(/[^.[\]]+|\[\d+\]/g) ?? [];
  let at = value;
  for (const step of steps) {
    if (at === null || typeof at !== "object") return void 0;
    const key = step.startsWith("[") ? Number(step.slice(1, -1)) : step;
    if (Array.isArray(at) !== (typeof key === "number")) return void 0;
    if (!Object.hasOwn(at, key)) return void 0;
    at = at[key];
  }
  return at;
}
function firstJsonBlock(text) {
  const m = /```json\s+([\s\S]*?)```/i.exec(text);
  if (!m) return null;
  try {
    return { value: JSON.parse(m[1]) };
  } catch {
    return "the ```json block is not valid JSON";
  }
}
function judgeIncludes(item, exact) {
  const want = expectedText(item.expected);
  if (want === null) return unscored(item.expected === null ? "no expected answer" : "the expected answer is an object: use kind json");
  const text = item.text ?? "";
  if (exact) return text.trim() === want.trim() ? judged(true, "the answer is the expected text") : judged(false, `the answer is not ${quote(want.trim())}`);
  return loose(text).includes(loose(want)) ? judged(true, `contains ${quote(want)}`) : judged(false, `does not contain ${quote(want)}`);
}
function judgeNumber(item, tolerance) {
  const e = expectedText(item.expected);
  const want = e === null ? NaN : Number(e.trim().replace(/,/g, ""));
  if (e === null || e.trim() === "" || !Number.isFinite(want)) return unscored(item.expected === null ? "no expected answer" : "the expected answer is not a number");
  const got = firstNumber(item.text ?? "");
  if (got === null) return judged(false, "no number in the answer");
  const off = Math.abs(got - want);
  return off <= tolerance ? judged(true, `${got} is within ${tolerance} of ${want}`) : judged(false, `${got} is ${off} from ${want} (tolerance ${tolerance})`);
}
function judgeFiles(item, names, roles) {
  const files = item.files ?? [];
  const missing = [];
  for (const g of names ?? []) {
    const re = globRegExp(g);
    if (!files.some((f) => f.name !== null && re.test(f.name))) missing.push(`no file named ${quote(g)}`);
  }
  for (const r of roles ?? []) if (!files.some((f) => f.role === r)) missing.push(`no file of role ${quote(r)}`);
  return missing.length ? judged(false, missing.join("; ")) : judged(true, `${files.length} file${files.length === 1 ? "" : "s"}, each asked for found`);
}
function judgeJson(item, path) {
  if (item.expected === null) return unscored("no expected answer");
  const block = firstJsonBlock(item.text ?? "");
  if (block === null) return judged(false, "no ```json block in the answer");
  if (typeof block === "string") return judged(false, block);
  const got = valueAt(block.value, path);
  if (got === void 0) return judged(false, `nothing at ${path || "$"} in the json block`);
  const want = plain(item.expected);
  const same = canonicalJson(got) === canonicalJson(want) || typeof want === "string" && got !== null && typeof got !== "object" && String(got) === want.trim();
  return same ? judged(true, `${path || "$"} is the expected value`) : judged(false, `${path || "$"} is ${quote(canonicalJson(got))}, not the expected value`);
}
var patterns = /* @__PURE__ */ new WeakMap();
function judgeLocally(spec, item) {
  const s = spec.settings;
  switch (spec.kind) {
    case "includes":
      return judgeIncludes(item, false);
    case "exact":
      return judgeIncludes(item, true);
    case "regex": {
      let re = patterns.get(spec);
      if (!re) patterns.set(spec, re = new RegExp(String(s["pattern"]), String(s["flags"] ?? "")));
      return re.test(item.text ?? "") ? judged(true, `matches /${re.source}/`) : judged(false, `does not match /${re.source}/`);
    }
    case "number":
      return judgeNumber(item, Number(s["tolerance"] ?? 0));
    case "files":
      return judgeFiles(item, s["names"], s["roles"]);
    case "json":
      return judgeJson(item, String(s["path"] ?? ""));
    default:
      throw new Error(`judgeLocally: ${spec.kind} is not a local scorer`);
  }
}

// src/score/command-scorer.ts
import { spawn } from "node:child_process";
var MAX_OUTPUT = 64 * 1024;
var MAX_REASON = 500;
var printed = external_exports.object({
  pass: external_exports.boolean({ error: "pass must be true or false" }),
  score: external_exports.number({ error: "score must be a number" }).min(0, { error: "score must be from 0 to 1" }).max(1, { error: "score must be from 0 to 1" }).nullable().optional(),
  reason: external_exports.string({ error: "reason must be text" }).optional()
});
function commandInput(item, scorer) {
  return JSON.stringify({ scorer, id: item.id, question: item.question, expected: item.expected, answer: item.text, files: item.files ?? [] });
}
function judgementOfOutput(out) {
  const text = out.trim();
  if (!text) return unscored("the scorer printed nothing");
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return unscored("the scorer printed no JSON object");
  }
  const r = printed.safeParse(value);
  if (!r.success) return unscored(`the scorer printed ${r.error.issues[0]?.message ?? "an unexpected value"}`);
  const reason = (r.data.reason ?? "").slice(0, MAX_REASON);
  return { pass: r.data.pass, score: r.data.score ?? (r.data.pass ? 1 : 0), reason: reason || (r.data.pass ? "passed" : "failed") };
}
function judgeWithCommand(spec, item, signal) {
  const command = String(spec.settings["command"]);
  const timeoutMs = Number(spec.settings["timeout_seconds"] ?? 30) * 1e3;
  return new Promise((resolve) => {
    const env = { ...process.env, RESQ_SCORER: spec.name };
    for (const name of SECRET_ENV) delete env[name];
    const child = spawn("/bin/sh", ["-c", command], { stdio: ["pipe", "pipe", "ignore"], env, detached: true });
    const chunks = [];
    let size = 0;
    let settled = false;
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
      }
    };
    const end = (j) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", stop);
      resolve(j);
    };
    const stop = () => {
      kill();
      end(unscored("stopped before the scorer ended"));
    };
    const timer = setTimeout(() => {
      kill();
      end(unscored(`the scorer did not end in ${timeoutMs / 1e3} s`));
    }, timeoutMs);
    signal?.addEventListener("abort", stop, { once: true });
    child.stdout.on("data", (b) => {
      size += b.length;
      if (size > MAX_OUTPUT) {
        kill();
        end(unscored(`the scorer printed more than ${MAX_OUTPUT / 1024} KB`));
      } else chunks.push(b);
    });
    child.on("error", (e) => end(unscored(`the scorer could not start (${e.code ?? "failed"})`)));
    child.on("close", (code, sig) => end(code === 0 ? judgementOfOutput(Buffer.concat(chunks).toString("utf8")) : unscored(`the scorer exited with ${code ?? sig}`)));
    child.stdin.on("error", () => {
    });
    child.stdin.end(commandInput(item, spec.name));
  });
}

// src/score/judge-item.ts
async function scoreInputOf(item, specs, o) {
  const input = { id: item.id, question: item.question, expected: item.expected ?? null, text: item.text };
  if (specs.some((s) => s.kind === "files")) input.files = (await o.store.filesForItem(o.batchId, item.id)).map((f) => ({ name: f.name, role: f.role }));
  return input;
}
async function judgeItem(item, specs, o) {
  const clock = o.clock ?? systemClock;
  const input = await scoreInputOf(item, specs, o);
  const out = [];
  for (const spec of specs) {
    try {
      if (spec.kind === "agent") continue;
      const j = spec.kind === "command" ? await judgeWithCommand(spec, input, o.signal) : judgeLocally(spec, input);
      out.push(verdictOf(spec, j, isoNow(clock), judgedBy(spec)));
    } catch (e) {
      if (o.strict && e instanceof ResqError) throw e;
      out.push(verdictOf(spec, unscored(`the scorer failed: ${e instanceof Error ? e.message : String(e)}`), isoNow(clock), judgedBy(spec)));
    }
  }
  return out;
}

export {
  verdictOf,
  judgedBy,
  judgeLocally,
  judgeItem
};
//# sourceMappingURL=chunk-AU72P42T.mjs.map
