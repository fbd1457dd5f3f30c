import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/sim/server.ts
import { createServer } from "node:http";

// src/sim/clock.ts
var SimClock = class {
  #offsetMs = 0;
  /** Called with the new offset after every advance (the state file's journal keeps it). */
  onAdvance = null;
  /** Current time in ms since the epoch, including every advance. */
  now() {
    return Date.now() + this.#offsetMs;
  }
  /** Moves the clock forward by `ms` (negative values are refused). */
  advance(ms) {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`clock.advance: ms must be a finite number >= 0, got ${ms}`);
    this.#offsetMs += ms;
    this.onAdvance?.(this.#offsetMs);
  }
  /** How far the clock was moved, for a snapshot. */
  get offsetMs() {
    return this.#offsetMs;
  }
  /** Puts the offset back from a snapshot. */
  restoreOffset(ms) {
    this.#offsetMs = Math.max(0, ms);
  }
  /** The current time as an ISO 8601 string. */
  iso() {
    return new Date(this.now()).toISOString();
  }
};

// src/sim/counters.ts
var MAX_LATENCIES = 1e4;
var CounterBook = class _CounterBook {
  #c = _CounterBook.#blank();
  #running = /* @__PURE__ */ new Map();
  #byInput = /* @__PURE__ */ new Map();
  /** Route key → idempotency key → runs created with it. */
  #byKey = /* @__PURE__ */ new Map();
  static #blank() {
    return {
      runsAdmitted: 0,
      respondRuns: 0,
      admissionsByKey: {},
      admissionsByInput: {},
      requestsByRoute: {},
      peakConcurrentRuns: {},
      modelRunsAdmitted: 0,
      modelRunsByKey: {},
      faultsInjected: {},
      fileFetches: {},
      pauseToRespondMs: []
    };
  }
  /** A deep copy, safe to keep and serialise. */
  snapshot() {
    const c = structuredClone(this.#c);
    c.admissionsByInput = Object.fromEntries(this.#byInput);
    for (const [route, keys] of this.#byKey) for (const [k, n] of keys) c.admissionsByKey[`${route}|${k}`] = n;
    return c;
  }
  /** Zeroes the counters; runs currently running still count towards peaks. */
  reset() {
    this.#c = _CounterBook.#blank();
    this.#byInput = /* @__PURE__ */ new Map();
    this.#byKey = /* @__PURE__ */ new Map();
  }
  /** One /api/v1 request for a route key. */
  request(routeKey) {
    bump(this.#c.requestsByRoute, routeKey);
  }
  /** One body of a file begun (GET /files/{id}). */
  fileFetch(fileId) {
    bump(this.#c.fileFetches, fileId);
  }
  /** One injected fault of a kind. */
  fault(kind) {
    bump(this.#c.faultsInjected, kind);
  }
  /** A run created by POST /runs (not a replay). */
  runAdmitted(input, routeKey, idempotencyKey) {
    this.#c.runsAdmitted++;
    this.#byInput.set(input, (this.#byInput.get(input) ?? 0) + 1);
    if (idempotencyKey !== void 0) this.#admittedWithKey(routeKey, idempotencyKey);
  }
  #admittedWithKey(routeKey, key) {
    let keys = this.#byKey.get(routeKey);
    if (!keys) this.#byKey.set(routeKey, keys = /* @__PURE__ */ new Map());
    keys.set(key, (keys.get(key) ?? 0) + 1);
  }
  /** A run created by POST /runs/{id}/respond (not a replay). */
  respondRun(routeKey, idempotencyKey) {
    this.#c.respondRuns++;
    if (idempotencyKey !== void 0) this.#admittedWithKey(routeKey, idempotencyKey);
  }
  /** How long a paused run waited for the respond that answered it. */
  answered(waitedMs) {
    const list = this.#c.pauseToRespondMs;
    if (list.length >= MAX_LATENCIES) list.shift();
    list.push(Math.round(waitedMs * 100) / 100);
  }
  /** A model run created (not a replay). */
  modelRun(idempotencyKey) {
    this.#c.modelRunsAdmitted++;
    if (idempotencyKey !== void 0) bump(this.#c.modelRunsByKey, idempotencyKey);
  }
  /** A run of `account` entered (`+1`) or left (`-1`) status `running`. */
  running(account, delta) {
    const n = (this.#running.get(account) ?? 0) + delta;
    this.#running.set(account, n);
    if (n > (this.#c.peakConcurrentRuns[account] ?? 0)) this.#c.peakConcurrentRuns[account] = n;
  }
  /** Runs of `account` in status `running` now. */
  runningNow(account) {
    return this.#running.get(account) ?? 0;
  }
};
function bump(rec, key) {
  rec[key] = (rec[key] ?? 0) + 1;
}

// src/sim/deps.ts
function resolveOptions(o = {}) {
  return {
    port: o.port ?? 0,
    host: o.host ?? "127.0.0.1",
    keys: o.keys ?? { "sim-key-alice": "alice", "sim-key-bob": "bob" },
    defaultDurationMs: o.defaultDurationMs ?? 300,
    runTimes: o.runTimes ?? true,
    streamMaxMs: o.streamMaxMs ?? 12e4,
    keepAliveMs: o.keepAliveMs ?? 15e3,
    maxRunningPerAccount: o.maxRunningPerAccount ?? Number.POSITIVE_INFINITY,
    modelJobMs: o.modelJobMs ?? 2e3,
    seed: o.seed ?? 1,
    statePath: o.statePath ?? null,
    serveState: o.serveState ?? false
  };
}

// src/sim/rng.ts
function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = a + 1831565813 >>> 0;
    let t = a;
    t = Math.imul(t ^ t >>> 15, t | 1);
    t ^= t + Math.imul(t ^ t >>> 7, t | 61);
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  };
}
function hashString(s) {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

// src/sim/faults.ts
function noFaults() {
  return {
    error5xxBefore: 0,
    error5xxAfter: 0,
    dropBefore: 0,
    dropAfter: 0,
    rate429: 0,
    retryAfterSeconds: 1,
    sseEndAfterEvents: null,
    latencyMs: 0,
    routes: null
  };
}
var PROBABILITIES = ["error5xxBefore", "error5xxAfter", "dropBefore", "dropAfter", "rate429"];
function faultProblems(f) {
  if (typeof f !== "object" || f === null || Array.isArray(f)) return ["faults must be an object"];
  const problems = [];
  const known = new Set(Object.keys(noFaults()));
  for (const [k, v] of Object.entries(f)) {
    if (!known.has(k)) problems.push(`unknown fault '${k}'`);
    else if (PROBABILITIES.includes(k)) {
      if (typeof v !== "number" || !(v >= 0 && v <= 1)) problems.push(`${k} must be a probability between 0 and 1`);
    } else if (k === "sseEndAfterEvents") {
      if (v !== null && !(Number.isInteger(v) && v >= 0)) problems.push(`${k} must be null or an integer >= 0`);
    } else if (k === "routes") {
      if (v !== null && !(Array.isArray(v) && v.every((r) => typeof r === "string"))) problems.push(`${k} must be null or an array of route keys`);
    } else if (typeof v !== "number" || !(v >= 0) || !Number.isFinite(v)) problems.push(`${k} must be a number >= 0`);
  }
  return problems;
}
var FaultPlan = class {
  #faults = noFaults();
  #random;
  constructor(seed) {
    this.#random = seededRandom(seed);
  }
  /** Merges a partial setting; throws a RangeError naming every bad field. */
  set(f) {
    const problems = faultProblems(f);
    if (problems.length) throw new RangeError(`invalid faults: ${problems.join("; ")}`);
    this.#faults = { ...this.#faults, ...f, routes: f.routes === void 0 ? this.#faults.routes : f.routes ? [...f.routes] : null };
  }
  /** A copy of the current settings. */
  get() {
    return { ...this.#faults, routes: this.#faults.routes ? [...this.#faults.routes] : null };
  }
  /** Back to no faults. */
  clear() {
    this.#faults = noFaults();
  }
  /** The fault, if any, to inject before the handler of `routeKey` runs. */
  drawBefore(routeKey) {
    if (!this.#applies(routeKey)) return null;
    if (this.#hit(this.#faults.rate429)) return "rate429";
    if (this.#hit(this.#faults.error5xxBefore)) return "error5xxBefore";
    if (this.#hit(this.#faults.dropBefore)) return "dropBefore";
    return null;
  }
  /** The fault, if any, to inject after the handler of `routeKey` did its work. */
  drawAfter(routeKey) {
    if (!this.#applies(routeKey)) return null;
    if (this.#hit(this.#faults.error5xxAfter)) return "error5xxAfter";
    if (this.#hit(this.#faults.dropAfter)) return "dropAfter";
    return null;
  }
  /** One of 500, 502, 503, chosen by the seeded generator. */
  draw5xx() {
    const r = this.#random();
    return r < 1 / 3 ? 500 : r < 2 / 3 ? 502 : 503;
  }
  #applies(routeKey) {
    return this.#faults.routes === null || this.#faults.routes.includes(routeKey);
  }
  #hit(p) {
    if (p <= 0) return false;
    if (p >= 1) return true;
    return this.#random() < p;
  }
};

// src/sim/http-io.ts
var HttpError = class extends Error {
  status;
  code;
  headers;
  constructor(status, code, message, headers = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
};
function sendJson(res, status, body, headers = {}) {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text)
  });
  res.end(text);
}
function errorReply(e, requestId) {
  return { status: e.status, body: { error: { code: e.code, message: e.message }, request_id: requestId }, headers: e.headers };
}
var MAX_BODY = 1024 * 1024;
function readJson(req, seen) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    const onData = (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        req.off("data", onData);
        req.resume();
        reject(new HttpError(413, "payload_too_large", `request body is over ${MAX_BODY} bytes`));
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("error", reject);
    req.once("end", () => {
      if (size > MAX_BODY) return;
      const text = chunks.length === 1 ? chunks[0].toString("utf8") : Buffer.concat(chunks).toString("utf8");
      seen?.(text);
      if (text.trim() === "") return resolve(void 0);
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new HttpError(400, "invalid_request", "request body is not valid JSON"));
      }
    });
  });
}
function idempotencyKeyOf(req) {
  const raw = req.headers["idempotency-key"];
  if (raw === void 0) return void 0;
  const key = Array.isArray(raw) ? raw.join(",") : raw;
  if (key.length === 0 || key.length > 200) {
    throw new HttpError(400, "invalid_request", "Idempotency-Key must be 1 to 200 characters");
  }
  return key;
}

// src/sim/ids.ts
import { createHash, randomBytes } from "node:crypto";
var PREFIX = randomBytes(6).toString("hex");
var counter = 0;
function newRequestId() {
  return `req_${PREFIX}${(counter++ >>> 0).toString(16).padStart(8, "0")}`;
}
function derivedCallId(runId, i) {
  const hex = runId.replaceAll("-", "");
  return `call_${hex.slice(18, 32)}${(i & 255).toString(16).padStart(2, "0")}`;
}
function derivedMessageId(runId, role) {
  const h = createHash("sha1").update(`${runId}/${role}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${(parseInt(h[16], 16) & 3 | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

// src/sim/ledger.ts
import { createHash as createHash2 } from "node:crypto";

// src/sim/file-content.ts
import { crc32 as crc322 } from "node:zlib";

// src/sim/hostile.ts
var HOSTILE_SNIPPETS = [
  `<script>window.__resqPwned='script';alert('script')</script>`,
  `<img src=x onerror="window.__resqPwned='onerror';alert('onerror')">`,
  `<svg onload="window.__resqPwned='svg-onload'"></svg>`,
  `<iframe src="javascript:window.__resqPwned='iframe'"></iframe>`
];
function hostileMarkdown() {
  return [
    "## Hostile content (simulated)",
    "",
    ...HOSTILE_SNIPPETS,
    "",
    `[a javascript link](javascript:window.__resqPwned='link';alert('link'))`,
    `[a data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)`,
    `![an image](javascript:window.__resqPwned='img-src')`,
    `<a href="javascript:window.__resqPwned='raw-a'">raw anchor</a>`,
    "[a fine link](https://example.org/paper)"
  ].join("\n");
}
var HOSTILE_FILE_NAME = `<img src=x onerror="window.__resqPwned='name';alert('name')">.md`;
var HOSTILE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60" onload="parent.__resqPwned='svg-file-onload'"><script>parent.__resqPwned='svg-file';window.__resqPwned='svg-file';alert('svg file')</script><rect width="120" height="60" fill="#e15759"/><text x="10" y="35" fill="#fff">hostile svg</text></svg>
`;
var HOSTILE_HTML = `<!doctype html><html><body><script>parent.__resqPwned='html-file';alert('html file')</script><p>hostile page</p></body></html>
`;
function hugeText(s, chars) {
  return s.length >= chars ? s.slice(0, chars) : s + " lorem".repeat(Math.ceil((chars - s.length) / 6)).slice(0, chars - s.length);
}
function hugeInput(input, chars) {
  const big = (v) => typeof v === "string" ? hugeText(v, chars) : Array.isArray(v) ? v.map(big) : v !== null && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === "id" ? x : big(x)])) : v;
  return big(input);
}
function deepValue(levels) {
  let v = "bottom";
  for (let i = 0; i < levels; i++) v = { level: v };
  return v;
}
function hostileText(s) {
  return `${s} ${HOSTILE_SNIPPETS[1]}`;
}

// src/sim/png.ts
import { crc32, deflateSync } from "node:zlib";
var PNG_SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
function pngChunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}
function pngBody(width, height, seed) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const bars = 8;
  const heights = Array.from({ length: bars }, (_, i) => 0.2 + (seed >>> i * 3 & 7) / 7 * 0.75);
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0;
    for (let x = 0; x < width; x++) {
      const bar = Math.floor(x / width * bars);
      const inBar = x % Math.ceil(width / bars) > 2 && 1 - y / height <= (heights[bar] ?? 0);
      const p = row + 1 + x * 3;
      raw[p] = inBar ? 40 + bar * 25 : 250;
      raw[p + 1] = inBar ? 90 : 250;
      raw[p + 2] = inBar ? 200 - bar * 15 : 250;
    }
  }
  return Buffer.concat([PNG_SIGNATURE, pngChunk("IHDR", ihdr), pngChunk("IDAT", deflateSync(raw))]);
}
var PNG_IEND = pngChunk("IEND", Buffer.alloc(0));
var PNG_PAD_TYPE = "prVt";

// src/sim/directives.ts
var FILE_KINDS = ["md", "csv", "png", "pdb", "svg", "html"];
var TOKEN = /^@([a-z_]+)(?:=(\S*))?$/;
function parseScript(input) {
  const script = {
    question: "",
    durationMs: void 0,
    pauses: [],
    files: [],
    filename: void 0,
    sizeBytes: void 0,
    fail: false,
    status: void 0,
    deltas: 4,
    hostile: false,
    search: true,
    hugeChars: void 0,
    deepLevels: void 0,
    repeatOptions: false
  };
  const kept = [];
  for (const token of input.split(/\s+/)) {
    if (token === "") continue;
    const m = TOKEN.exec(token);
    if (!m || !apply(script, m[1] ?? "", m[2])) kept.push(token);
  }
  script.question = kept.join(" ");
  return script;
}
function apply(s, name, value) {
  switch (name) {
    case "duration": {
      const ms = value === void 0 ? void 0 : parseDuration(value);
      if (ms === void 0) return false;
      s.durationMs = ms;
      return true;
    }
    case "confirm": {
      if (value === void 0) s.pauses.push({ tool: "confirm_scope" });
      else {
        if (value === "") return false;
        const cost = Number(value);
        s.pauses.push({ tool: "confirm_scope", cost: Number.isFinite(cost) ? cost : safeDecode(value) });
      }
      return true;
    }
    case "choice":
      if (value !== void 0 && value !== "multi" && value !== "single") return false;
      s.pauses.push({ tool: "ask_choice", allowMultiple: value === "multi" });
      return true;
    case "image":
      if (value !== void 0) return false;
      s.pauses.push({ tool: "request_quality_image" });
      return true;
    case "tool":
      if (!value) return false;
      s.pauses.push({ tool: value, unknown: true });
      return true;
    case "files": {
      if (!value) return false;
      const files = [];
      for (const part of value.split(",")) {
        const [kind, flag] = part.split(":");
        if (!kind || !FILE_KINDS.includes(kind) || flag !== void 0 && flag !== "noname") return false;
        files.push({ kind, named: flag === void 0 });
      }
      s.files.push(...files);
      return true;
    }
    case "filename":
      if (!value) return false;
      s.filename = safeDecode(value);
      return true;
    case "size": {
      const n = value === void 0 ? void 0 : parseSize(value);
      if (n === void 0) return false;
      s.sizeBytes = n;
      return true;
    }
    case "fail":
      if (value !== void 0) return false;
      s.fail = true;
      return true;
    case "hostile":
      if (value !== void 0) return false;
      s.hostile = true;
      return true;
    case "nosearch":
      if (value !== void 0) return false;
      s.search = false;
      return true;
    case "huge": {
      const n = value === void 0 ? void 0 : parseSize(value);
      if (n === void 0 || n > 64 * 1024 ** 2) return false;
      s.hugeChars = n;
      return true;
    }
    case "deep": {
      const n = wholeIn(value, 1, 1e5);
      if (n === void 0) return false;
      s.deepLevels = n;
      return true;
    }
    case "repeat_options":
      if (value !== void 0) return false;
      s.repeatOptions = true;
      return true;
    case "status":
      if (!value) return false;
      s.status = value;
      return true;
    case "deltas": {
      const n = wholeIn(value, 0, 1e4);
      if (n === void 0) return false;
      s.deltas = n;
      return true;
    }
    default:
      return false;
  }
}
function wholeIn(value, lo, hi) {
  const n = Number(value);
  return value !== void 0 && value !== "" && Number.isInteger(n) && n >= lo && n <= hi ? n : void 0;
}
function parseDuration(v) {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(v);
  if (!m) return void 0;
  const n = Number(m[1]);
  const unit = m[2] ?? "ms";
  return Math.round(n * (unit === "ms" ? 1 : unit === "s" ? 1e3 : 6e4));
}
function parseSize(v) {
  const m = /^(\d+)(b|kb|k|mb|m|gb|g)?$/i.exec(v);
  if (!m) return void 0;
  const unit = (m[2] ?? "b").toLowerCase()[0];
  const mult = unit === "k" ? 1024 : unit === "m" ? 1024 ** 2 : unit === "g" ? 1024 ** 3 : 1;
  return Number(m[1]) * mult;
}
function safeDecode(v) {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

// src/sim/judge.ts
var JUDGE_HEADER = "resq judging request (format 1)";
function sections(input) {
  if (!input.startsWith(`${JUDGE_HEADER}
`)) return null;
  const out = /* @__PURE__ */ new Map();
  const head = /\[([a-z ]+): (\d+)(?: of \d+)? characters\]\n/g;
  let at = 0;
  for (; ; ) {
    head.lastIndex = at;
    const m = head.exec(input);
    if (!m) break;
    const start = m.index + m[0].length;
    const n = Number(m[2]);
    if (start + n > input.length) return null;
    out.set(m[1], input.slice(start, start + n));
    at = start + n;
  }
  return out.has("answer") && out.has("expected answer") && out.has("question") ? out : null;
}
function judgeCaseOf(input) {
  const s = sections(input);
  if (!s) return null;
  const question = s.get("question");
  return { question, expected: s.get("expected answer"), answer: s.get("answer"), silent: question.split(/\s+/).includes("@judge_silent") };
}
function judgeScript(c) {
  const own = c.question.split(/\s+/).filter((t) => t.startsWith("@judge_") && t !== "@judge_silent").map((t) => `@${t.slice("@judge_".length)}`);
  return { ...parseScript(own.join(" ")), judge: { expected: c.expected, answer: c.answer, silent: c.silent } };
}
var loose = (s) => s.toLowerCase().replace(/\s+/g, " ").trim();
function judgeReply(c) {
  if (c.silent) return ["I would rather not say whether this answer is right."];
  const pass = loose(c.answer).includes(loose(c.expected));
  return [pass ? "VERDICT: PASS" : "VERDICT: FAIL", `The answer ${pass ? "contains" : "does not contain"} the expected text.`];
}

// src/sim/agent-script.ts
var FILE_TOOLS = {
  pdb: { tool: "fold_protein", role: "structureId", base: "structure" },
  png: { tool: "make_figure", role: "figure", base: "figure" },
  csv: { tool: "write_table", role: "table", base: "table" },
  md: { tool: "write_report", role: "report", base: "report" },
  svg: { tool: "make_figure", role: "figure", base: "figure" },
  html: { tool: "write_report", role: "report", base: "page" }
};
function residuesFor(question) {
  return 60 + hashString(question) % 240;
}
function scriptOf(chain) {
  const judging = judgeCaseOf(chain.input);
  return judging ? judgeScript(judging) : parseScript(chain.input);
}
function planStep(chain, step, s = scriptOf(chain)) {
  const question = s.question || "the question";
  const search = { tool: "search_literature", input: { query: question, limit: 5 } };
  const pause = chain.narrow ? void 0 : s.pauses[step];
  const context = chain.earlierMessages > 0 ? ` Continuing a thread with ${chain.earlierMessages} earlier messages.` : "";
  if (pause) {
    const lead = step === 0 ? `Working on: "${question}".${context}` : `Carrying on after ${chain.answers.at(-1) ?? "your answer"}.`;
    return {
      text: `${lead} Before going further I need a decision (${pause.tool}).`,
      deltas: s.deltas,
      tools: s.search ? [search] : [],
      end: { kind: "pause", tool: pause.tool, input: hostileValues(s, s.hostile ? hostilePause(pauseInput(pause, question, s)) : pauseInput(pause, question, s)) }
    };
  }
  const tools = s.search ? [search] : [];
  const used = /* @__PURE__ */ new Map();
  const files = s.hostile ? [...s.files, { kind: "md", named: true }, { kind: "svg", named: true }, { kind: "html", named: true }] : s.files;
  files.forEach((f, i) => {
    const meta = FILE_TOOLS[f.kind];
    let name;
    if (f.named) {
      const n = (used.get(f.kind) ?? 0) + 1;
      used.set(f.kind, n);
      name = i === 0 && s.filename !== void 0 ? s.filename : `${meta.base}${n > 1 ? `-${n}` : ""}.${f.kind}`;
      if (s.hostile && i === s.files.length) name = HOSTILE_FILE_NAME;
    }
    tools.push({ tool: meta.tool, input: toolInput(f.kind, question), file: { kind: f.kind, role: meta.role, name } });
  });
  const lines = s.judge ? judgeReply(s.judge) : [`## Answer`, "", `Simulated answer to: "${question}".${context}`];
  if (chain.answers.length) lines.push("", `Decisions: ${chain.answers.join("; ")}.`);
  if (chain.narrow) lines.push("", "Narrow answer: the scope was declined, so this answer keeps to the literature only.");
  if (s.hostile) lines.push("", hostileMarkdown());
  const names = tools.filter((t) => t.file).map((t) => t.file?.name ?? `(unnamed ${t.file?.kind})`);
  if (names.length) lines.push("", `Files: ${names.join(", ")}.`);
  let end = { kind: "final", status: "completed", error: null };
  if (s.fail) {
    lines.push("", "The agent could not finish: simulated failure.");
    end = { kind: "final", status: "failed", error: { code: "agent_error", message: "simulated failure (@fail)" } };
  } else if (s.status !== void 0 && s.status !== "running") {
    end = { kind: "final", status: s.status, error: null };
  }
  return { text: lines.join("\n"), deltas: s.deltas, tools, end };
}
function hostileValues(s, input) {
  const sized = s.hugeChars === void 0 ? input : hugeInput(input, s.hugeChars);
  return s.deepLevels === void 0 ? sized : { ...sized, nested: deepValue(s.deepLevels) };
}
function pauseInput(p, question, s) {
  switch (p.tool) {
    case "confirm_scope": {
      const input = {
        objective: `Answer "${question}" with a full analysis`,
        steps: ["Search the literature", "Fold the candidate structures", "Write the report with figures"],
        instead: "Answer from the literature only, without new computation"
      };
      if ("cost" in p && p.cost !== void 0) input.cost = p.cost;
      return input;
    }
    case "ask_choice": {
      const options = [
        { id: "a", label: "Homology model", description: "Fast, uses known templates" },
        { id: "b", label: "De novo folding", description: "Slower, no template needed" },
        { id: "c", label: "Literature only", description: "No computation" }
      ];
      if (s.repeatOptions) options.splice(1, 0, { ...options[0], label: "Homology model (again)" });
      return {
        question: "Which route should the analysis take?",
        options,
        allowMultiple: "allowMultiple" in p && p.allowMultiple === true
      };
    }
    case "request_quality_image":
      return { prompt: `Publication-quality figure for: ${question}`, reason: "A high-quality render costs extra credits" };
    default:
      return { detail: `The agent needs an answer for ${p.tool} before going on` };
  }
}
function toolInput(kind, question) {
  switch (kind) {
    case "pdb":
      return { sequence: sequenceFor(residuesFor(question)), recycles: 3 };
    case "png":
      return { kind: "bar", title: question };
    case "csv":
      return { columns: ["index", "residue", "plddt"] };
    case "md":
    case "html":
      return { title: question };
    case "svg":
      return { kind: "vector", title: question };
  }
}
function hostilePause(input) {
  const out = {};
  for (const [k, v] of Object.entries(input)) {
    if (typeof v === "string") out[k] = hostileText(v);
    else if (k === "options" && Array.isArray(v)) out[k] = v.map((o) => ({ ...o, label: hostileText(String(o.label)) }));
    else if (k === "steps" && Array.isArray(v)) out[k] = v.map((x) => hostileText(String(x)));
    else out[k] = v;
  }
  return out;
}
var AMINO = "ACDEFGHIKLMNPQRSTVWY";
function sequenceFor(n) {
  let s = "";
  for (let i = 0; i < n; i++) s += AMINO[(i * 7 + 3) % AMINO.length];
  return s;
}

// src/sim/file-content.ts
var MEDIA_TYPES = {
  md: "text/markdown; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  png: "image/png",
  pdb: "chemical/x-pdb",
  svg: "image/svg+xml",
  html: "text/html; charset=utf-8"
};
var BLOCK = 64 * 1024;
var PNG_W = 160;
var PNG_H = 120;
function fileSize(f) {
  if (f.sizeBytes === void 0) return natural(f).length;
  if (f.kind === "png") {
    const min = pngBody(PNG_W, PNG_H, seedOf(f)).length + 12 + PNG_IEND.length;
    return f.sizeBytes < min ? natural(f).length : f.sizeBytes;
  }
  return f.sizeBytes;
}
function* fileChunks(f) {
  const size = fileSize(f);
  if (f.sizeBytes === void 0 || size !== f.sizeBytes) {
    yield* split(natural(f));
    return;
  }
  if (f.kind === "png") {
    yield* paddedPng(f, size);
    return;
  }
  const { head, line } = textParts(f);
  let left = size;
  for (const part of split(Buffer.from(head, "utf8"))) {
    if (left <= 0) return;
    const piece = part.length <= left ? part : part.subarray(0, left);
    left -= piece.length;
    yield piece;
  }
  const block = repeatLines(line, BLOCK);
  while (left > 0) {
    const piece = block.length <= left ? block : block.subarray(0, left);
    left -= piece.length;
    yield piece;
  }
}
function* paddedPng(f, size) {
  const body = pngBody(PNG_W, PNG_H, seedOf(f));
  yield body;
  const padLen = size - body.length - 12 - PNG_IEND.length;
  const head = Buffer.alloc(8);
  head.writeUInt32BE(padLen, 0);
  head.write(PNG_PAD_TYPE, 4, "latin1");
  yield head;
  let crc = crc322(head.subarray(4));
  const block = Buffer.alloc(BLOCK, 46);
  let left = padLen;
  while (left > 0) {
    const piece = block.length <= left ? block : block.subarray(0, left);
    crc = crc322(piece, crc);
    left -= piece.length;
    yield piece;
  }
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc, 0);
  yield tail;
  yield PNG_IEND;
}
function* split(buf) {
  for (let i = 0; i < buf.length; i += BLOCK) yield buf.subarray(i, i + BLOCK);
}
function seedOf(f) {
  return hashString(f.id);
}
function natural(f) {
  if (f.kind === "png") return Buffer.concat([pngBody(PNG_W, PNG_H, seedOf(f)), PNG_IEND]);
  const { head, rows } = textParts(f);
  return Buffer.from(head + rows.join(""), "utf8");
}
function textParts(f) {
  const seed = seedOf(f);
  switch (f.kind) {
    case "svg":
      return { head: HOSTILE_SVG, rows: [], line: (i) => `<!-- padding ${i} -->
` };
    case "html":
      return { head: HOSTILE_HTML, rows: [], line: (i) => `<!-- padding ${i} -->
` };
    case "csv": {
      const line = (i) => `${i},${sequenceFor(f.residues)[i % f.residues]},${plddt(seed, i).toFixed(2)}
`;
      return { head: "index,residue,plddt\n", rows: Array.from({ length: f.residues }, (_, i) => line(i)), line };
    }
    case "md": {
      const line = (i) => `- Finding ${i + 1}: residue ${i % f.residues + 1} has pLDDT ${plddt(seed, i).toFixed(1)}.
`;
      const report = `# Report

Simulated report (file ${f.id}).

## Findings

`;
      const head = f.name === HOSTILE_FILE_NAME ? `${report}${hostileMarkdown()}

` : report;
      return { head, rows: [...Array.from({ length: 8 }, (_, i) => line(i)), "\n## Method\n\nSimulated.\n"], line };
    }
    default: {
      const seq = sequenceFor(f.residues);
      const line = (i) => atomLine(i, seq[i % seq.length] ?? "A", seed);
      const head = `HEADER    SIMULATED STRUCTURE                     ${"01-JAN-25"}   SIM1
TITLE     STRUCTURE ${f.id.slice(0, 40)}
`;
      const rows = [...Array.from({ length: f.residues }, (_, i) => line(i)), `TER   ${String(f.residues + 1).padStart(5)}
END
`];
      return { head, rows, line };
    }
  }
}
function repeatLines(line, max) {
  let s = "";
  for (let i = 0; ; i++) {
    const next = line(i);
    if (s.length + next.length > max) break;
    s += next;
  }
  return Buffer.from(s, "utf8");
}
function plddt(seed, i) {
  return 50 + ((seed ^ Math.imul(i + 1, 2654435761)) >>> 0) % 4900 / 100;
}
var THREE = {
  A: "ALA",
  C: "CYS",
  D: "ASP",
  E: "GLU",
  F: "PHE",
  G: "GLY",
  H: "HIS",
  I: "ILE",
  K: "LYS",
  L: "LEU",
  M: "MET",
  N: "ASN",
  P: "PRO",
  Q: "GLN",
  R: "ARG",
  S: "SER",
  T: "THR",
  V: "VAL",
  W: "TRP",
  Y: "TYR"
};
function atomLine(i, aa, seed) {
  const x = 2.3 * Math.cos(i * 1.745);
  const y = 2.3 * Math.sin(i * 1.745);
  const z = 1.5 * i;
  const serial = String(i % 99999 + 1).padStart(5);
  const resSeq = String(i % 9999 + 1).padStart(4);
  const b = plddt(seed, i).toFixed(2).padStart(6);
  return `ATOM  ${serial}  CA  ${THREE[aa] ?? "ALA"} A${resSeq}    ${x.toFixed(3).padStart(8)}${y.toFixed(3).padStart(8)}${(z % 9999).toFixed(3).padStart(8)}  1.00${b}           C
`;
}

// src/sim/ledger.ts
var RequestLedger = class {
  /** `<account> <scope> <key>` → what requests carried that key. */
  #keys = /* @__PURE__ */ new Map();
  /** Files are generated from their record: same record, same bytes, hashed once. */
  #hashes = /* @__PURE__ */ new WeakMap();
  /**
   * Counts a request that carried an idempotency key and reached its route, with the sha256
   * of its body exactly as received. A request without a key is not counted.
   */
  keyed(account, scope, key, body) {
    if (key === void 0) return;
    const id = `${account} ${scope} ${key}`;
    let t = this.#keys.get(id);
    if (!t) this.#keys.set(id, t = { account, scope, key, requests: 0, bodies: /* @__PURE__ */ new Set() });
    t.requests++;
    t.bodies.add(sha256(body));
  }
  /** The ledger of `store` as it is now (plain data). */
  read(store) {
    const keyOfRun = /* @__PURE__ */ new Map();
    for (const [id, runId] of store.idempotency) keyOfRun.set(runId, id);
    const fileRun = /* @__PURE__ */ new Map();
    const runs = [];
    for (const r of store.runs.values()) {
      for (const f of r.fileIds ?? []) fileRun.set(f, r.id);
      runs.push({
        id: r.id,
        account: r.account,
        threadId: r.threadId,
        input: r.chain.input,
        parentId: r.parentId,
        idempotencyKey: keyOf(keyOfRun.get(r.id), r.account),
        status: r.status,
        fileIds: [...r.fileIds ?? []]
      });
    }
    const keys = [...this.#keys.entries()].map(([id, t]) => ({
      account: t.account,
      scope: t.scope,
      key: t.key,
      requests: t.requests,
      bodies: [...t.bodies],
      madeId: store.idempotency.get(id) ?? null
    }));
    const files = [...store.files.values()].map((f) => ({ id: f.id, runId: fileRun.get(f.id) ?? null, ...this.#hash(f) }));
    return { runs, keys, files };
  }
  #hash(f) {
    let h = this.#hashes.get(f);
    if (!h) {
      const hash = createHash2("sha256");
      let bytes = 0;
      for (const c of fileChunks(f)) {
        hash.update(c);
        bytes += c.length;
      }
      this.#hashes.set(f, h = { sha256: hash.digest("hex"), bytes });
    }
    return h;
  }
};
function sha256(s) {
  return createHash2("sha256").update(s, "utf8").digest("hex");
}
function keyOf(entry, account) {
  if (entry === void 0 || !entry.startsWith(`${account} `)) return null;
  const rest = entry.slice(account.length + 1);
  const afterMethod = rest.indexOf(" ");
  const afterPath = afterMethod < 0 ? -1 : rest.indexOf(" ", afterMethod + 1);
  return afterPath < 0 ? null : rest.slice(afterPath + 1);
}

// src/sim/journal.ts
import { closeSync, ftruncateSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
function journalPathOf(statePath) {
  return `${statePath}.journal`;
}
var SimJournal = class {
  path;
  #fd;
  #seq;
  /** Opens (or creates) the journal for appending; `seq` is the number of the last record already kept. */
  constructor(path, seq) {
    this.path = path;
    this.#fd = openSync(path, "a", 384);
    this.#seq = seq;
  }
  /** Number of the last record written. */
  get seq() {
    return this.#seq;
  }
  /** Appends one record. Nothing once closed (a closed simulator keeps nothing more). */
  append(e) {
    const fd = this.#fd;
    if (fd === null) return;
    const buf = Buffer.from(`${JSON.stringify({ n: ++this.#seq, ...e })}
`);
    for (let off = 0; off < buf.length; ) off += writeSync(fd, buf, off);
  }
  /** A run admitted, with its thread and (scoped) idempotency key. */
  runStarted(run, thread, key) {
    if (this.#fd === null) return;
    const { runIds: _r, ...head } = thread;
    this.append({ k: "run", run: savedRun(run), thread: head, key });
  }
  /** A run moved to `cancelling`. */
  cancelled(run) {
    this.append({ k: "cancel", id: run.id, progress: run.progress });
  }
  /** A file the run made, its `index`-th. */
  fileMade(run, index, file) {
    this.append({ k: "file", id: run.id, progress: run.progress, index, file });
  }
  /** A run finished (or paused). */
  ended(run) {
    this.append({ k: "end", id: run.id, status: run.status, completedAt: run.completedAt ?? 0, progress: run.progress });
  }
  /** A thread deleted. */
  threadDeleted(id) {
    this.append({ k: "thread-deleted", id });
  }
  /** A model run as it stands, with the files it made and its (scoped) idempotency key. */
  modelRun(run, files, key) {
    if (this.#fd === null) return;
    const { done: _d, ...m } = run;
    this.append({ k: "model", run: m, files, key });
  }
  /** The clock's offset changed. */
  clockMoved(offsetMs) {
    this.append({ k: "clock", offsetMs });
  }
  /** Empties the file: a snapshot now holds every record (up to {@link seq}). */
  truncate() {
    if (this.#fd !== null) ftruncateSync(this.#fd, 0);
  }
  /** Closes the file; `remove` deletes it too (a snapshot holds everything). */
  close(remove = false) {
    if (this.#fd === null) return;
    closeSync(this.#fd);
    this.#fd = null;
    if (remove) rmSync(this.path, { force: true });
  }
};
function savedRun(run) {
  const { listeners: _l, live: _t, ...r } = run;
  return { ...r, pausedAt: null };
}
function readJournal(path, after) {
  let text;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if (e.code === "ENOENT") return [];
    throw e;
  }
  const lines = text.split("\n");
  const records = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line === "") continue;
    let rec;
    try {
      rec = JSON.parse(line);
    } catch {
      if (i === lines.length - 1) break;
      throw new Error(`${path}: line ${i + 1} is not a simulator journal record`);
    }
    if (typeof rec?.n !== "number" || typeof rec.k !== "string") throw new Error(`${path}: line ${i + 1} is not a simulator journal record`);
    if (rec.n > after) records.push(rec);
  }
  return records;
}
function applyJournal(store, records) {
  let clockOffsetMs = null;
  for (const rec of records) {
    switch (rec.k) {
      case "run": {
        const { run: saved, thread: head, key } = rec;
        if (store.runs.has(saved.id)) break;
        const run = { ...saved, live: null, listeners: null };
        store.runs.set(run.id, run);
        let thread = store.threads.get(head.id);
        if (!thread) store.threads.set(head.id, thread = { ...head, runIds: [] });
        if (!thread.runIds.includes(run.id)) thread.runIds.push(run.id);
        thread.updatedAt = Math.max(thread.updatedAt, head.updatedAt);
        if (head.seq > store.threadSeq) store.restoreThreadSeq(head.seq);
        if (run.parentId !== null) {
          const parent = store.runs.get(run.parentId);
          if (parent) parent.answeredBy = run.id;
        }
        if (key !== null) store.idempotency.set(key, run.id);
        break;
      }
      case "cancel": {
        const run = store.runs.get(rec.id);
        if (run && run.status === "running") {
          run.status = "cancelling";
          run.progress = Math.max(run.progress, rec.progress);
        }
        break;
      }
      case "file": {
        store.files.set(rec.file.id, rec.file);
        const run = store.runs.get(rec.id);
        if (!run) break;
        const ids = run.fileIds ??= [];
        ids[rec.index] = rec.file.id;
        run.progress = Math.max(run.progress, rec.progress);
        break;
      }
      case "end": {
        const run = store.runs.get(rec.id);
        if (!run) break;
        run.status = rec.status;
        run.completedAt = rec.completedAt;
        run.progress = Math.max(run.progress, rec.progress);
        const thread = store.threads.get(run.threadId);
        if (thread) thread.updatedAt = rec.completedAt;
        break;
      }
      case "thread-deleted":
        store.threads.delete(rec.id);
        break;
      case "model": {
        for (const f of rec.files) store.files.set(f.id, f);
        store.modelRuns.set(rec.run.id, { ...rec.run, done: Promise.resolve() });
        if (rec.key !== null) store.idempotency.set(rec.key, rec.run.id);
        break;
      }
      case "clock":
        clockOffsetMs = rec.offsetMs;
        break;
    }
  }
  return { clockOffsetMs };
}

// src/sim/answers.ts
function answerProblem(action, answer) {
  if (!isObject(answer)) return "answer must be an object";
  switch (action.tool) {
    case "confirm_scope":
    case "request_quality_image":
      return typeof answer.approved === "boolean" ? null : `answer.approved must be a boolean for ${action.tool}`;
    case "ask_choice":
      return choiceProblem(action.input, answer);
    default:
      return null;
  }
}
function choiceProblem(input, answer) {
  if (answer.note !== void 0 && typeof answer.note !== "string") return "answer.note must be a string";
  if (answer.decision === "declined") return null;
  if (answer.decision !== "chosen") return "answer.decision must be 'chosen' or 'declined'";
  const chosen = answer.chosen;
  if (!Array.isArray(chosen) || chosen.length === 0) return "answer.chosen must be a non-empty array of option ids";
  const offered = new Set(
    (Array.isArray(input.options) ? input.options : []).map((o) => isObject(o) ? o.id : void 0)
  );
  for (const id of chosen) {
    if (typeof id !== "string" || !offered.has(id)) return `answer.chosen: '${String(id)}' is not an offered option id`;
  }
  if (new Set(chosen).size !== chosen.length) return "answer.chosen repeats an option id";
  if (chosen.length > 1 && input.allowMultiple !== true) return "answer.chosen may hold one id only: allowMultiple is false";
  return null;
}
function summariseAnswer(action, answer) {
  switch (action.tool) {
    case "confirm_scope":
      return { line: `confirm_scope: ${answer.approved ? "approved" : "declined"}`, narrow: answer.approved !== true };
    case "request_quality_image":
      return { line: `request_quality_image: ${answer.approved ? "approved" : "declined"}`, narrow: false };
    case "ask_choice": {
      const base = answer.decision === "declined" ? "ask_choice: declined" : `ask_choice: chosen ${answer.chosen.join(",")}`;
      return { line: typeof answer.note === "string" ? `${base} (note: ${answer.note})` : base, narrow: false };
    }
    default:
      return { line: `${action.tool}: answered ${JSON.stringify(answer)}`, narrow: false };
  }
}
function isObject(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

// src/sim/model-catalog.ts
var MODELS = {
  echo: {
    id: "echo",
    name: "Echo",
    description: "Returns its text, repeated and optionally shouted. Fast.",
    gpu: false,
    inputs: [
      { name: "text", type: "string", required: true, description: "Text to return" },
      { name: "repeat", type: "integer", required: false, default: 1, description: "How many times" },
      { name: "shout", type: "boolean", required: false, description: "Upper-case the result" }
    ],
    outputs: [{ name: "text", type: "string", description: "The echoed text" }],
    run(i) {
      const once = i.shout === true ? String(i.text).toUpperCase() : String(i.text);
      const text = Array.from({ length: Math.max(0, Number(i.repeat ?? 1)) }, () => once).join(" ");
      return { status: "succeeded", outputs: { text }, error: null, credits: 1 };
    }
  },
  descriptors: {
    id: "descriptors",
    name: "Molecular descriptors",
    description: "Molecular weight and logP from a SMILES string. Fast.",
    gpu: false,
    inputs: [
      { name: "smiles", type: "string", required: true, description: "Molecule as SMILES" },
      { name: "include_3d", type: "boolean", required: false, default: false, description: "Also embed a conformer" },
      { name: "weights", type: "object", required: false, description: "Per-element weight overrides" },
      { name: "properties", type: "array", required: false, description: "Descriptors wanted (all when absent)" }
    ],
    outputs: [
      { name: "mw", type: "number", description: "Molecular weight (g/mol)" },
      { name: "logp", type: "number", description: "Octanol-water partition coefficient" }
    ],
    run(i) {
      const smiles = String(i.smiles);
      if (smiles === "INVALID" || smiles.trim() === "") {
        return { status: "failed", outputs: null, error: `could not parse SMILES '${smiles}'`, credits: 0 };
      }
      const weights = { ...ATOMIC_WEIGHTS, ...isObject(i.weights) ? numbersOf(i.weights) : {} };
      let mw = 0;
      for (const m of smiles.matchAll(/Cl|Br|[BCNOPSFI]|[cnops]/g)) mw += weights[m[0].length === 1 ? m[0].toUpperCase() : m[0]] ?? 0;
      const logp = (hashString(smiles) % 1e3 / 100 - 2).toFixed(2);
      return { status: "succeeded", outputs: { mw: Number(mw.toFixed(3)), logp: Number(logp) }, error: null, credits: i.include_3d ? 3 : 2 };
    }
  },
  fold: {
    id: "fold",
    name: "Fold",
    description: "Predicts a protein structure. Needs a GPU: runs as a background job.",
    gpu: true,
    inputs: [
      { name: "sequence", type: "string", required: true, description: "Amino-acid sequence, one letter per residue" },
      { name: "recycles", type: "integer", required: false, default: 3, description: "Recycling iterations" },
      { name: "temperature", type: "number", required: false, description: "Sampling temperature" },
      { name: "template", type: "file", required: false, description: "Id of a PDB file to use as template" }
    ],
    outputs: [
      { name: "meanPlddt", type: "number", description: "Mean confidence (0-100)" },
      { name: "structure", type: "file", description: "Predicted structure (PDB)" }
    ],
    run(i, makeFile) {
      const seq = String(i.sequence);
      if (seq === "CANCEL") return { status: "cancelled", outputs: null, error: null, credits: 0 };
      if (!/^[A-Za-z]+$/.test(seq)) {
        return { status: "failed", outputs: null, error: "sequence must hold amino-acid letters only", credits: 0 };
      }
      const meanPlddt = Number((60 + hashString(seq) % 3900 / 100).toFixed(2));
      return {
        status: "succeeded",
        outputs: { meanPlddt, structure: makeFile("fold.pdb", seq.length) },
        error: null,
        credits: 10 + Math.ceil(seq.length / 50)
      };
    }
  }
};
var ATOMIC_WEIGHTS = {
  B: 10.81,
  C: 12.011,
  N: 14.007,
  O: 15.999,
  P: 30.974,
  S: 32.06,
  F: 18.998,
  Cl: 35.45,
  Br: 79.904,
  I: 126.904
};
function numbersOf(o) {
  return Object.fromEntries(Object.entries(o).filter((e) => typeof e[1] === "number"));
}
function describeModel(def, origin) {
  return {
    id: def.id,
    object: "model",
    name: def.name,
    description: def.description,
    page_url: pageUrl(def, origin),
    gpu: def.gpu,
    inputs: def.inputs,
    outputs: def.outputs,
    version: "sim-1",
    tags: def.gpu ? ["gpu", "structure"] : ["cpu"]
  };
}
function pageUrl(def, origin) {
  return `${origin}/models/${def.id}`;
}
function checkInputs(def, inputs) {
  const out = {};
  for (const name of Object.keys(inputs)) {
    if (!def.inputs.some((i) => i.name === name)) return `unknown input '${name}' for model ${def.id}`;
  }
  for (const spec of def.inputs) {
    const v = inputs[spec.name];
    if (v === void 0 || v === null) {
      if (spec.required) return `missing required input '${spec.name}' (${spec.type})`;
      if (spec.default !== void 0) out[spec.name] = spec.default;
      continue;
    }
    if (!hasType(v, spec.type)) return `input '${spec.name}' must be of type ${spec.type}`;
    out[spec.name] = v;
  }
  return out;
}
function hasType(v, t) {
  switch (t) {
    case "string":
    case "file":
      return typeof v === "string";
    case "integer":
      return Number.isInteger(v);
    case "number":
      return typeof v === "number" && Number.isFinite(v);
    case "boolean":
      return typeof v === "boolean";
    case "object":
      return isObject(v);
    case "array":
      return Array.isArray(v);
  }
}

// src/sim/store.ts
import { randomBytes as randomBytes2, randomUUID } from "node:crypto";
var FILE_RETENTION_MS = 30 * 24 * 60 * 60 * 1e3;
var SimStore = class {
  runs = /* @__PURE__ */ new Map();
  threads = /* @__PURE__ */ new Map();
  files = /* @__PURE__ */ new Map();
  modelRuns = /* @__PURE__ */ new Map();
  /** `<account> <METHOD> <path> <key>` → id of what the first request made. */
  idempotency = /* @__PURE__ */ new Map();
  #threadSeq = 0;
  /** Bumped on every change worth saving (see snapshot.ts). */
  version = 0;
  /** Marks the state changed. */
  touch() {
    this.version++;
  }
  /** The thread counter, for a snapshot. */
  get threadSeq() {
    return this.#threadSeq;
  }
  /** Puts the thread counter back from a snapshot. */
  restoreThreadSeq(n) {
    this.#threadSeq = n;
  }
  /** The account's run, or undefined. */
  run(account, id) {
    const r = this.runs.get(id);
    return r && r.account === account ? r : void 0;
  }
  /** The account's thread, or undefined (also once deleted). */
  thread(account, id) {
    const t = this.threads.get(id);
    return t && t.account === account ? t : void 0;
  }
  /** The file, unless it belongs to someone else or is past its 30 days at `now`. */
  file(account, id, now) {
    const f = this.files.get(id);
    if (!f || f.account !== account) return void 0;
    return now > f.createdAt + FILE_RETENTION_MS ? void 0 : f;
  }
  /** The account's model run, or undefined. */
  modelRun(account, id) {
    const m = this.modelRuns.get(id);
    return m && m.account === account ? m : void 0;
  }
  /** Opens a new thread titled after its first message. */
  newThread(account, firstMessage, now) {
    const t = {
      id: randomUUID(),
      account,
      title: titleOf(firstMessage),
      seq: ++this.#threadSeq,
      updatedAt: now,
      runIds: []
    };
    this.threads.set(t.id, t);
    return t;
  }
  /** Removes a thread for good; uuids are never handed out twice, so its id is never reused. */
  deleteThread(id) {
    this.threads.delete(id);
    this.touch();
  }
  /** Whether any run of the thread is still going (running or cancelling). */
  isThreadBusy(t) {
    return t.runIds.some((id) => {
      const s = this.runs.get(id)?.status;
      return s === "running" || s === "cancelling";
    });
  }
  /** The account's threads, newest first. */
  threadsOf(account) {
    return [...this.threads.values()].filter((t) => t.account === account).sort((a, b) => b.updatedAt - a.updatedAt || b.seq - a.seq);
  }
};
function newFileId() {
  return `file_${randomBytes2(12).toString("hex")}`;
}
function newModelRunId() {
  return `mrun_${randomBytes2(12).toString("hex")}`;
}
var TITLE_MAX = 60;
function titleOf(text) {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length <= TITLE_MAX ? oneLine : `${oneLine.slice(0, TITLE_MAX - 1)}\u2026`;
}

// src/sim/model-jobs.ts
var ModelJobs = class {
  #d;
  constructor(deps) {
    this.#d = deps;
  }
  /**
   * Starts a model run. `background` makes it a job of modelJobMs; `pollable` gives it a
   * poll_url (the answer is a 202). `key` is the request's idempotency key (counted);
   * `remember`, the idempotency entry to find the run under.
   */
  start(account, def, inputs, background, pollable, key, remember2) {
    const id = newModelRunId();
    let settle = () => {
    };
    const run = {
      id,
      account,
      modelId: def.id,
      createdAt: this.#d.clock.now(),
      status: "running",
      outputs: null,
      error: null,
      credits: null,
      pollUrl: pollable ? `${this.#d.baseUrl()}/model-runs/${id}` : null,
      pageUrl: pageUrl(def, this.#d.origin()),
      inputs,
      done: new Promise((resolve) => {
        settle = resolve;
      })
    };
    this.#d.store.modelRuns.set(id, run);
    if (remember2 !== void 0) this.#d.store.idempotency.set(remember2, id);
    this.#d.counters.modelRun(key);
    const finish = () => {
      const made = [];
      apply2(run, def.run(inputs, this.#fileMaker(account, made)));
      this.#d.store.touch();
      settle();
      return made;
    };
    this.#d.store.touch();
    if (background) {
      this.#d.journal?.modelRun(run, [], remember2 ?? null);
      this.#d.timers.timeout(() => {
        const made = finish();
        this.#d.journal?.modelRun(run, made, null);
      }, this.#d.modelJobMs);
    } else {
      const made = finish();
      this.#d.journal?.modelRun(run, made, remember2 ?? null);
    }
    return run;
  }
  /** Finishes a job restored from a snapshot while it was running (after a whole job's time). */
  resume(run, def) {
    if (run.status !== "running") return;
    let settle = () => {
    };
    run.done = new Promise((resolve) => {
      settle = resolve;
    });
    this.#d.timers.timeout(() => {
      const made = [];
      if (def) apply2(run, def.run(run.inputs, this.#fileMaker(run.account, made)));
      else apply2(run, { status: "failed", outputs: null, error: "model no longer known", credits: 0 });
      this.#d.journal?.modelRun(run, made, null);
      this.#d.store.touch();
      settle();
    }, this.#d.modelJobMs);
  }
  /** Makes the files of a model run, each also pushed to `made`. */
  #fileMaker(account, made) {
    return (name, residues) => {
      const rec = { id: newFileId(), account, kind: "pdb", name, sizeBytes: void 0, residues, createdAt: this.#d.clock.now() };
      this.#d.store.files.set(rec.id, rec);
      made.push(rec);
      return { id: rec.id, role: "structure", url: `${this.#d.baseUrl()}/files/${rec.id}`, name };
    };
  }
};
function apply2(run, r) {
  run.status = r.status;
  run.outputs = r.outputs;
  run.error = r.error;
  run.credits = r.credits;
}

// src/sim/router.ts
function matchRoute(routes, method, path) {
  const allow = [];
  let pattern = "";
  for (const route of routes) {
    const params = matchPattern(route.pattern, path);
    if (!params) continue;
    pattern = route.pattern;
    if (route.method === method || method === "HEAD" && route.method === "GET") {
      return { kind: "found", route, params, routeKey: `${route.method} ${route.pattern}` };
    }
    allow.push(route.method);
  }
  return allow.length ? { kind: "method", allow, routeKey: `${method} ${pattern}` } : { kind: "none" };
}
function matchPattern(pattern, path) {
  const want = pattern.split("/");
  const got = path.split("/");
  if (want.length !== got.length) return void 0;
  const params = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] ?? "";
    const g = got[i] ?? "";
    if (w.startsWith(":")) {
      if (g === "") return void 0;
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        return void 0;
      }
    } else if (w !== g) return void 0;
  }
  return params;
}

// src/sim/routes/control.ts
async function control(req, path, d) {
  const method = req.method ?? "GET";
  const only = (m) => {
    if (!m.includes(method)) throw new HttpError(405, "method_not_allowed", `${method} not allowed on ${path}`, { allow: m.join(", ") });
  };
  switch (path) {
    case "/_sim/counters":
      only(["GET"]);
      return { status: 200, body: d.counters.snapshot() };
    case "/_sim/faults": {
      only(["GET", "POST", "DELETE"]);
      if (method === "DELETE") d.faults.clear();
      if (method === "POST") {
        const body = await readJson(req) ?? {};
        const problems = faultProblems(body);
        if (problems.length) throw new HttpError(400, "invalid_request", problems.join("; "));
        d.faults.set(body);
      }
      return { status: 200, body: d.faults.get() };
    }
    case "/_sim/clock": {
      only(["GET", "POST"]);
      if (method === "POST") {
        const body = await readJson(req);
        const ms = body?.advanceMs;
        if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0) {
          throw new HttpError(400, "invalid_request", "advanceMs must be a number >= 0");
        }
        d.clock.advance(ms);
      }
      return { status: 200, body: { now: d.clock.iso() } };
    }
    case "/_sim/ledger":
      only(["GET"]);
      return { status: 200, body: d.ledger.read(d.store) };
    case "/_sim/reset":
      only(["POST"]);
      d.counters.reset();
      return { status: 200, body: d.counters.snapshot() };
    default:
      return void 0;
  }
}

// src/sim/routes/events.ts
async function streamEvents(ctx, d) {
  const id = ctx.params.id ?? "";
  const run = d.store.run(ctx.account, id);
  if (!run) throw new HttpError(404, "not_found", `run ${id} not found`);
  const after = parseAfter(ctx.query.get("after"));
  const { res } = ctx;
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive"
  });
  res.write("retry: 1000\n\n");
  const limit = d.faults.get().sseEndAfterEvents;
  let sent = 0;
  let closed = false;
  let unsubscribe = () => {
  };
  const keepAlive = d.timers.interval(() => res.write(": keepalive\n\n"), d.opts.keepAliveMs);
  const maxTimer = d.timers.timeout(() => end(), d.opts.streamMaxMs);
  function end(abrupt = false, last) {
    if (closed) return;
    closed = true;
    unsubscribe();
    d.timers.clear(keepAlive);
    d.timers.clear(maxTimer);
    if (abrupt) d.timers.timeout(() => res.destroy(), 5);
    else if (!res.destroyed) res.end(last);
  }
  function send(e) {
    if (closed) return;
    const chunk = e.chunk ??= `id: ${e.id}
event: ${e.event}
data: ${JSON.stringify(e.data)}

`;
    sent++;
    if (e.event === "run") return end(false, chunk);
    res.write(chunk);
    if (ctx.afterFault === "dropAfter") {
      d.counters.fault("dropAfter");
      return end(true);
    }
    if (limit !== null && sent >= limit) {
      d.counters.fault("sseEndAfterEvents");
      end();
    }
  }
  res.on("close", () => end());
  if (limit === 0) {
    d.counters.fault("sseEndAfterEvents");
    end();
    return "streamed";
  }
  const log = run.progress === 0 && !d.engine.isFinished(run) ? [] : d.engine.events(run);
  for (const e of log) {
    if (e.id > after && e.event !== "run") send(e);
  }
  const final = log.at(-1);
  if (final?.event === "run") send(final);
  else if (!closed) unsubscribe = d.engine.follow(run, send);
  return "streamed";
}
function parseAfter(raw) {
  if (raw === null || raw === "") return -1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < -1) throw new HttpError(400, "invalid_request", "after must be an integer >= -1");
  return n;
}

// src/sim/routes/files.ts
import { Readable } from "node:stream";
async function getFile(ctx, d) {
  const id = ctx.params.id ?? "";
  const f = d.store.file(ctx.account, id, d.clock.now());
  if (!f) throw new HttpError(404, "not_found", `file ${id} not found`);
  const size = fileSize(f);
  const headers = {
    "content-type": MEDIA_TYPES[f.kind],
    "content-length": size,
    "cache-control": "private, max-age=0"
  };
  if (f.name !== void 0) headers["content-disposition"] = `attachment; filename*=UTF-8''${encodeURIComponent(f.name)}`;
  const { res } = ctx;
  res.writeHead(200, headers);
  if (ctx.req.method === "HEAD") {
    res.end();
    return "streamed";
  }
  d.counters.fileFetch(id);
  const cutAt = ctx.afterFault === "dropAfter" ? Math.floor(size / 2) : Number.POSITIVE_INFINITY;
  const source = Readable.from(truncated(fileChunks(f), cutAt), { objectMode: false });
  source.on("end", () => {
    if (cutAt !== Number.POSITIVE_INFINITY) {
      d.counters.fault("dropAfter");
      res.destroy();
    }
  });
  source.on("error", () => res.destroy());
  res.on("close", () => source.destroy());
  source.pipe(res, { end: cutAt === Number.POSITIVE_INFINITY });
  return "streamed";
}
function* truncated(chunks, limit) {
  let left = limit;
  for (const c of chunks) {
    if (left <= 0) return;
    const piece = c.length <= left ? c : c.subarray(0, left);
    left -= piece.length;
    yield piece;
  }
}

// src/sim/views.ts
function runView(r, s, times = true) {
  const iso = (ms) => ms === null ? null : new Date(ms).toISOString();
  const view = {
    id: r.id,
    object: "run",
    status: r.status,
    thread_id: r.threadId,
    ...times ? { created_at: iso(r.createdAt), completed_at: iso(r.completedAt), finished_at: iso(r.completedAt), updated_at: iso(r.completedAt ?? r.createdAt) } : {},
    previous_run_id: r.parentId,
    output: { text: s.text, tool_results: s.toolResults }
  };
  if (s.requiredAction) view.required_action = s.requiredAction;
  if (s.error) view.error = s.error;
  return view;
}
function threadListItem(t, messageCount) {
  return {
    object: "thread",
    id: t.id,
    title: t.title,
    updated_at: new Date(t.updatedAt).toISOString(),
    message_count: messageCount
  };
}
function threadView(t, messages) {
  return {
    object: "thread",
    id: t.id,
    title: t.title,
    updated_at: new Date(t.updatedAt).toISOString(),
    latest_run_id: t.runIds.at(-1) ?? null,
    message_count: messages.length,
    messages
  };
}
function modelRunView(m) {
  return {
    id: m.id,
    object: "model_run",
    model: m.modelId,
    status: m.status,
    outputs: m.outputs === null ? null : structuredClone(m.outputs),
    error: m.error,
    credits: m.credits,
    poll_url: m.pollUrl,
    page_url: m.pageUrl,
    created_at: new Date(m.createdAt).toISOString()
  };
}

// src/sim/routes/models.ts
async function describe(ctx, d) {
  return { status: 200, body: describeModel(findModel(ctx), d.origin()) };
}
async function runModel(ctx, d) {
  const key = idempotencyKeyOf(ctx.req);
  const body = await readJson(ctx.req, (text) => d.ledger.keyed(ctx.account, ctx.scope, key, text));
  const def = findModel(ctx);
  if (key !== void 0) {
    const id = d.store.idempotency.get(`${ctx.account} ${ctx.scope} ${key}`);
    const prior = id === void 0 ? void 0 : d.store.modelRuns.get(id);
    if (prior) return { ...reply(prior), headers: { "idempotent-replayed": "true" } };
  }
  if (!isObject(body) || !isObject(body.inputs)) throw new HttpError(400, "invalid_request", "body must be a JSON object with inputs (an object)");
  const mode = body.mode;
  if (mode !== void 0 && mode !== null && mode !== "sync" && mode !== "async") {
    throw new HttpError(400, "invalid_request", "mode must be 'sync' or 'async'");
  }
  const checked = checkInputs(def, body.inputs);
  if (typeof checked === "string") throw new HttpError(400, "invalid_request", checked);
  const background = mode === "async" || def.gpu;
  const answersLater = mode === "async" || def.gpu && mode !== "sync";
  const run = d.models.start(ctx.account, def, checked, background, answersLater, key, key === void 0 ? void 0 : `${ctx.account} ${ctx.scope} ${key}`);
  if (!answersLater) await run.done;
  return reply(run);
}
async function getModelRun(ctx, d) {
  const id = ctx.params.id ?? "";
  const run = d.store.modelRun(ctx.account, id);
  if (!run) throw new HttpError(404, "not_found", `model run ${id} not found`);
  return { status: 200, body: modelRunView(run) };
}
function reply(run) {
  return { status: run.status === "running" ? 202 : 200, body: modelRunView(run) };
}
function findModel(ctx) {
  const id = ctx.params.id ?? "";
  const def = Object.hasOwn(MODELS, id) ? MODELS[id] : void 0;
  if (!def) throw new HttpError(404, "not_found", `model ${id} not found`);
  return def;
}

// src/sim/thread-messages.ts
function threadMessages(t, src) {
  const messages = [];
  for (const id of t.runIds) {
    const run = src.run(id);
    if (!run) continue;
    if (run.parentId === null) messages.push({ id: derivedMessageId(run.id, "user"), role: "user", text: run.chain.input, tool_results: [] });
    if (src.isFinished(run)) {
      const s = src.state(run);
      messages.push({ id: derivedMessageId(run.id, "assistant"), role: "assistant", text: s.text, tool_results: s.toolResults });
    }
  }
  return messages;
}
function threadMessageCount(t, src) {
  let n = 0;
  for (const id of t.runIds) {
    const run = src.run(id);
    if (!run) continue;
    if (run.parentId === null) n++;
    if (src.isFinished(run)) n++;
  }
  return n;
}

// src/sim/routes/runs.ts
async function createRun(ctx, d) {
  const key = idempotencyKeyOf(ctx.req);
  const body = await readJson(ctx.req, (text) => d.ledger.keyed(ctx.account, ctx.scope, key, text));
  const replay = replayOf(ctx, d, key);
  if (replay) return replay;
  if (!isObject(body)) throw new HttpError(400, "invalid_request", "body must be a JSON object with input");
  const { input, thread_id: threadId } = body;
  if (typeof input !== "string" || input.trim() === "") throw new HttpError(400, "invalid_request", "input must be a non-empty string");
  if (threadId !== void 0 && threadId !== null && typeof threadId !== "string") {
    throw new HttpError(400, "invalid_request", "thread_id must be a string");
  }
  let thread;
  if (typeof threadId === "string") {
    thread = d.store.thread(ctx.account, threadId);
    if (!thread) throw new HttpError(404, "not_found", `thread ${threadId} not found`);
    if (d.store.isThreadBusy(thread)) throw new HttpError(409, "thread_busy", `thread ${threadId} already has a run going`);
  }
  checkRunningLimit(ctx, d);
  const now = d.clock.now();
  thread ??= d.store.newThread(ctx.account, input, now);
  const earlierMessages = threadMessageCount(thread, { run: (id) => d.store.runs.get(id), isFinished: (r) => d.engine.isFinished(r) });
  const run = d.engine.start({
    account: ctx.account,
    thread,
    chain: { input, answers: NO_ANSWERS, narrow: false, earlierMessages },
    step: 0,
    parentId: null
  });
  remember(ctx, d, key, run);
  d.journal?.runStarted(run, thread, key === void 0 ? null : scopeKey(ctx, key));
  d.counters.runAdmitted(input, ctx.routeKey, key);
  return { status: 200, body: d.engine.view(run) };
}
var NO_ANSWERS = Object.freeze([]);
async function getRun(ctx, d) {
  return { status: 200, body: d.engine.view(findRun(ctx, d)) };
}
async function respond(ctx, d) {
  const key = idempotencyKeyOf(ctx.req);
  const body = await readJson(ctx.req, (text) => d.ledger.keyed(ctx.account, ctx.scope, key, text));
  const run = findRun(ctx, d);
  const replay = replayOf(ctx, d, key);
  if (replay) return replay;
  if (run.answeredBy !== null) {
    throw new HttpError(409, "run_not_waiting", `run ${run.id} was already answered (by run ${run.answeredBy})`);
  }
  const requiredAction = run.status === "requires_action" ? d.engine.state(run).requiredAction : null;
  if (!requiredAction) {
    throw new HttpError(409, "run_not_waiting", `run ${run.id} is ${run.status}, not requires_action`);
  }
  const answer = isObject(body) ? body.answer : void 0;
  if (answer === void 0) throw new HttpError(400, "invalid_request", "body must be a JSON object with answer");
  const problem = answerProblem(requiredAction, answer);
  if (problem) throw new HttpError(400, "invalid_request", problem);
  const thread = d.store.thread(ctx.account, run.threadId);
  if (!thread) throw new HttpError(404, "not_found", `thread ${run.threadId} of run ${run.id} was deleted`);
  if (d.store.isThreadBusy(thread)) throw new HttpError(409, "thread_busy", `thread ${thread.id} already has a run going`);
  checkRunningLimit(ctx, d);
  const summary = summariseAnswer(requiredAction, answer);
  const next = d.engine.start({
    account: ctx.account,
    thread,
    chain: { ...run.chain, answers: [...run.chain.answers, summary.line], narrow: run.chain.narrow || summary.narrow },
    step: run.step + 1,
    parentId: run.id
  });
  run.answeredBy = next.id;
  remember(ctx, d, key, next);
  d.journal?.runStarted(next, thread, key === void 0 ? null : scopeKey(ctx, key));
  d.counters.respondRun(ctx.routeKey, key);
  if (run.pausedAt !== null) d.counters.answered(ctx.arrivedAt - run.pausedAt);
  return { status: 200, body: d.engine.view(next) };
}
async function cancelRun(ctx, d) {
  const run = findRun(ctx, d);
  if (run.status === "running") d.engine.cancel(run);
  else if (run.status !== "cancelling") throw new HttpError(409, "run_finished", `run ${run.id} is ${run.status}, not running`);
  return { status: 200, body: d.engine.view(run) };
}
function findRun(ctx, d) {
  const id = ctx.params.id ?? "";
  const run = d.store.run(ctx.account, id);
  if (!run) throw new HttpError(404, "not_found", `run ${id} not found`);
  return run;
}
function checkRunningLimit(ctx, d) {
  if (d.counters.runningNow(ctx.account) >= d.opts.maxRunningPerAccount) {
    throw new HttpError(429, "too_many_runs", `account already has ${d.opts.maxRunningPerAccount} runs going`, {
      "retry-after": "1"
    });
  }
}
function scopeKey(ctx, key) {
  return `${ctx.account} ${ctx.scope} ${key}`;
}
function replayOf(ctx, d, key) {
  if (key === void 0) return void 0;
  const id = d.store.idempotency.get(scopeKey(ctx, key));
  const run = id === void 0 ? void 0 : d.store.runs.get(id);
  return run ? { status: 200, body: d.engine.view(run), headers: { "idempotent-replayed": "true" } } : void 0;
}
function remember(ctx, d, key, run) {
  if (key !== void 0) d.store.idempotency.set(scopeKey(ctx, key), run.id);
}

// src/sim/routes/threads.ts
var LIST_LIMIT = 50;
async function listThreads(ctx, d) {
  const all = d.store.threadsOf(ctx.account);
  const src = transcriptSource(d);
  const data = all.slice(0, LIST_LIMIT).map((t) => threadListItem(t, threadMessageCount(t, src)));
  return { status: 200, body: { object: "list", data, has_more: all.length > LIST_LIMIT } };
}
async function getThread(ctx, d) {
  const id = ctx.params.id ?? "";
  const t = d.store.thread(ctx.account, id);
  if (!t) throw new HttpError(404, "not_found", `thread ${id} not found`);
  return { status: 200, body: threadView(t, threadMessages(t, transcriptSource(d))) };
}
async function deleteThread(ctx, d) {
  const id = ctx.params.id ?? "";
  const t = d.store.thread(ctx.account, id);
  if (!t) throw new HttpError(404, "not_found", `thread ${id} not found`);
  d.store.deleteThread(id);
  d.journal?.threadDeleted(id);
  return { status: 200, body: { id, object: "thread", deleted: true } };
}
function transcriptSource(d) {
  return { run: (id) => d.store.runs.get(id), isFinished: (r) => d.engine.isFinished(r), state: (r) => d.engine.state(r) };
}

// src/sim/routes/table.ts
function apiRoutes(d) {
  return [
    { method: "POST", pattern: "/runs", handler: (c) => createRun(c, d) },
    { method: "GET", pattern: "/runs/:id", handler: (c) => getRun(c, d) },
    { method: "GET", pattern: "/runs/:id/events", handler: (c) => streamEvents(c, d), streams: true },
    { method: "POST", pattern: "/runs/:id/respond", handler: (c) => respond(c, d) },
    { method: "POST", pattern: "/runs/:id/cancel", handler: (c) => cancelRun(c, d) },
    { method: "GET", pattern: "/files/:id", handler: (c) => getFile(c, d), streams: true },
    { method: "GET", pattern: "/threads", handler: (c) => listThreads(c, d) },
    { method: "GET", pattern: "/threads/:id", handler: (c) => getThread(c, d) },
    { method: "DELETE", pattern: "/threads/:id", handler: (c) => deleteThread(c, d) },
    { method: "GET", pattern: "/models/:id", handler: (c) => describe(c, d) },
    { method: "POST", pattern: "/models/:id/runs", handler: (c) => runModel(c, d) },
    { method: "GET", pattern: "/model-runs/:id", handler: (c) => getModelRun(c, d) }
  ];
}

// src/sim/run-engine.ts
import { randomUUID as randomUUID2 } from "node:crypto";

// src/sim/run-timeline.ts
var END = { kind: "end" };
function timelineOf(chain, step) {
  const script = scriptOf(chain);
  const plan = planStep(chain, step, script);
  const pieces = splitText(plan.text, plan.deltas);
  const deltas = pieces.map((_, piece) => ({ kind: "delta", piece }));
  const half = Math.ceil(deltas.length / 2);
  const steps = [];
  const fileIndex = [];
  let files = 0;
  plan.tools.forEach((t, tool) => {
    fileIndex.push(t.file ? files++ : -1);
    steps.push({ kind: "started", tool });
    if (tool === 0) steps.push(...deltas.slice(0, half));
    steps.push({ kind: "result", tool });
  });
  if (plan.tools.length === 0) steps.push(...deltas.slice(0, half));
  steps.push(...deltas.slice(half), END);
  return { script, plan, pieces, fullText: pieces.length ? pieces.join("") : plan.text, steps, fileIndex };
}
function textAt(tl, done) {
  if (done >= tl.steps.length) return tl.fullText;
  let text = "";
  for (let i = 0; i < done; i++) {
    const s = tl.steps[i];
    if (s.kind === "delta") text += tl.pieces[s.piece];
  }
  return text;
}
var SURROGATE = /[\uD800-\uDFFF]/;
function splitText(text, n) {
  if (n <= 0) return [];
  if (text.length >= n && !SURROGATE.test(text)) {
    const pieces2 = [];
    for (let i = 0; i < n; i++) pieces2.push(text.slice(Math.floor(i * text.length / n), Math.floor((i + 1) * text.length / n)));
    return pieces2;
  }
  const chars = Array.from(text);
  while (chars.length < n) chars.push(".");
  const pieces = [];
  for (let i = 0; i < n; i++) {
    pieces.push(chars.slice(Math.floor(i * chars.length / n), Math.floor((i + 1) * chars.length / n)).join(""));
  }
  return pieces;
}

// src/sim/run-state.ts
function timelineOfRun(run) {
  return run.live ?? timelineOf(run.chain, run.step);
}
function callIdOf(run, tool) {
  return run.callIds?.[tool] ?? derivedCallId(run.id, tool);
}
function runState(run, tl, baseUrl) {
  const done = Math.min(run.progress, tl.steps.length);
  const toolResults = [];
  for (let i = 0; i < done; i++) {
    const s = tl.steps[i];
    if (s.kind === "result") toolResults.push(toolResultOf(run, tl, s.tool, baseUrl));
  }
  const ended = done === tl.steps.length;
  const end = tl.plan.end;
  return {
    text: textAt(tl, done),
    toolResults,
    requiredAction: ended && end.kind === "pause" && run.status === "requires_action" ? { tool: end.tool, input: end.input } : null,
    error: ended && end.kind === "final" && end.error && run.status === end.status ? { ...end.error } : null
  };
}
function toolResultOf(run, tl, tool, baseUrl) {
  const t = tl.plan.tools[tool];
  const callId = callIdOf(run, tool);
  const fileId = t.file ? run.fileIds?.[tl.fileIndex[tool]] : void 0;
  if (!t.file || fileId === void 0) {
    return { type: "tool_result", call_id: callId, tool: t.tool, status: "succeeded", input: t.input, output: searchOutput(), files: [] };
  }
  const ref = { id: fileId, role: t.file.role, url: `${baseUrl}/files/${fileId}` };
  if (t.file.name !== void 0) ref.name = t.file.name;
  const output = fileToolOutput(t.file.kind, fileId, residuesFor(tl.script.question));
  return { type: "tool_result", call_id: callId, tool: t.tool, status: "succeeded", input: t.input, output, files: [ref] };
}
function eventsOf(run, tl, finalView) {
  const done = Math.min(run.progress, tl.steps.length);
  const events = [];
  for (let i = 0; i < done; i++) {
    const e = stepEvent(run, tl, i);
    if (e) events.push(e);
  }
  if (finalView) events.push({ id: events.length, event: "run", data: finalView() });
  return events;
}
function stepEvent(run, tl, i) {
  const s = tl.steps[i];
  switch (s.kind) {
    case "started":
      return { id: i, event: "tool.started", data: { tool: toolName(tl, s.tool), call_id: callIdOf(run, s.tool) } };
    case "delta":
      return { id: i, event: "text.delta", data: { text: tl.pieces[s.piece] } };
    case "result":
      return { id: i, event: "tool.result", data: { tool: toolName(tl, s.tool), status: "succeeded", call_id: callIdOf(run, s.tool) } };
    case "end":
      return null;
  }
}
function toolName(tl, tool) {
  return tl.plan.tools[tool].tool;
}
function searchOutput() {
  return { ok: true, hits: 3, sources: ["PubMed", "bioRxiv"] };
}
function fileToolOutput(kind, fileId, residues) {
  const h = hashString(fileId);
  switch (kind) {
    case "pdb":
      return { ok: true, residues, meanPlddt: 70 + h % 2500 / 100, structureId: fileId, model: "sim-fold-1" };
    case "png":
      return { ok: true, figure: fileId, width: 160, height: 120, format: "png" };
    case "csv":
      return { ok: true, table: fileId, rows: residues, columns: 3 };
    case "md":
    case "html":
      return { ok: true, report: fileId, words: 120 + h % 400 };
    case "svg":
      return { ok: true, figure: fileId, format: "svg" };
  }
}

// src/sim/run-engine.ts
var CANCEL_MS = 100;
var RunEngine = class {
  #d;
  constructor(deps) {
    this.#d = deps;
  }
  /** Creates a run in status `running` and starts its work. */
  start(n) {
    const now = this.#d.clock.now();
    const run = {
      id: randomUUID2(),
      account: n.account,
      threadId: n.thread.id,
      createdAt: now,
      completedAt: null,
      status: "running",
      parentId: n.parentId,
      chain: n.chain,
      step: n.step,
      answeredBy: null,
      pausedAt: null,
      progress: 0,
      callIds: null,
      fileIds: null,
      live: null,
      listeners: null
    };
    this.#d.store.runs.set(run.id, run);
    if (n.thread.runIds.length === 0) n.thread.runIds = [run.id];
    else n.thread.runIds.push(run.id);
    n.thread.updatedAt = now;
    this.#d.counters.running(run.account, 1);
    this.#d.store.touch();
    this.#schedule(run);
    return run;
  }
  /**
   * Carries on with a run restored from a snapshot: a running one from the step it had
   * reached (over the rest of its time), a cancelling one to `cancelled`.
   */
  resume(run) {
    if (run.status === "running") {
      this.#d.counters.running(run.account, 1);
      this.#schedule(run);
    } else if (run.status === "cancelling") {
      this.#cancelLater(run, Math.min(CANCEL_MS, this.#durationOf(run)));
    }
  }
  /**
   * Cancels a run: `running` → `cancelling` at once, `cancelled` shortly after (its work so
   * far kept). Returns false when the run is not running (already finished or cancelling).
   */
  cancel(run) {
    if (run.status !== "running") return false;
    this.#leaveRunning(run, "cancelling");
    this.#d.journal?.cancelled(run);
    this.#d.store.touch();
    this.#cancelLater(run, Math.min(CANCEL_MS, this.#durationOf(run)));
    return true;
  }
  /** What the run has written so far, its pause and error. */
  state(run) {
    return runState(run, timelineOfRun(run), this.#d.baseUrl());
  }
  /** The run object as GET /runs/{id} gives it. */
  view(run) {
    return runView(run, this.state(run), this.#d.runTimes ?? true);
  }
  /** Whether the run sent its final `run` event (no longer running nor cancelling). */
  isFinished(run) {
    return run.status !== "running" && run.status !== "cancelling";
  }
  /** The events the run has sent so far (with the final `run` event once finished). */
  events(run) {
    return eventsOf(run, timelineOfRun(run), this.isFinished(run) ? () => this.view(run) : null);
  }
  /** Calls `fn` with every event the run sends from now on; returns the unsubscribe. */
  follow(run, fn) {
    (run.listeners ??= /* @__PURE__ */ new Set()).add(fn);
    return () => {
      run.listeners?.delete(fn);
      if (run.listeners?.size === 0) run.listeners = null;
    };
  }
  #schedule(run) {
    const tl = run.live ??= timelineOf(run.chain, run.step);
    const stepMs = this.#durationOf(run) / tl.steps.length;
    const t0 = performance.now() - run.progress * stepMs;
    const tick = () => {
      if (run.status !== "running") return;
      this.#step(run);
      if (run.status === "running" && run.progress < tl.steps.length) this.#d.timers.at(t0 + (run.progress + 1) * stepMs, tick);
    };
    if (run.progress < tl.steps.length) this.#d.timers.at(t0 + (run.progress + 1) * stepMs, tick);
  }
  #step(run) {
    const tl = run.live;
    const i = run.progress;
    const s = tl.steps[i];
    run.progress = i + 1;
    if (s.kind === "result") {
      const t = tl.plan.tools[s.tool];
      if (t.file) this.#makeFile(run, t.file, tl.script.sizeBytes, residuesFor(tl.script.question));
    }
    if (s.kind !== "end") {
      this.#d.store.touch();
      if (run.listeners) this.#send(run, stepEvent(run, tl, i));
      return;
    }
    const end = tl.plan.end;
    if (end.kind === "pause") this.#finish(run, "requires_action");
    else if (end.status === "cancelling") {
      this.#leaveRunning(run, "cancelling");
      this.#d.store.touch();
      this.#cancelLater(run, this.#durationOf(run));
    } else this.#finish(run, end.status);
  }
  #makeFile(run, f, sizeBytes, residues) {
    const rec = {
      id: newFileId(),
      account: run.account,
      kind: f.kind,
      name: f.name,
      sizeBytes,
      residues,
      createdAt: this.#d.clock.now()
    };
    this.#d.store.files.set(rec.id, rec);
    const ids = run.fileIds ??= [];
    ids.push(rec.id);
    this.#d.journal?.fileMade(run, ids.length - 1, rec);
  }
  #cancelLater(run, ms) {
    this.#d.timers.at(performance.now() + ms, () => {
      if (run.status === "cancelling") this.#finish(run, "cancelled");
    });
  }
  #leaveRunning(run, status) {
    if (run.status === "running") this.#d.counters.running(run.account, -1);
    run.status = status;
  }
  #finish(run, status) {
    this.#leaveRunning(run, status);
    run.completedAt = this.#d.clock.now();
    if (status === "requires_action") run.pausedAt = performance.now();
    const thread = this.#d.store.threads.get(run.threadId);
    if (thread) thread.updatedAt = run.completedAt;
    this.#d.journal?.ended(run);
    this.#d.store.touch();
    if (run.listeners) {
      const steps = timelineOfRun(run).steps.length;
      this.#send(run, { id: Math.min(run.progress, steps - 1), event: "run", data: this.view(run) });
    }
    run.live = null;
    run.listeners = null;
  }
  #send(run, e) {
    const ls = run.listeners;
    if (!ls) return;
    if (ls.size === 1) for (const l of ls) l(e);
    else for (const l of [...ls]) l(e);
  }
  #durationOf(run) {
    return (run.live?.script ?? scriptOf(run.chain)).durationMs ?? this.#d.defaultDurationMs;
  }
};

// src/sim/snapshot.ts
import { readFileSync as readFileSync2, renameSync, writeFileSync } from "node:fs";

// src/sim/snapshot-v1.ts
function fromVersion1(v1) {
  const inputs = /* @__PURE__ */ new Map();
  for (const t of v1.threads) {
    const users = t.messages.filter((m) => m.role === "user");
    let u = 0;
    for (const id of t.runIds) {
      const r = v1.runs.find((x) => x.id === id);
      if (r && r.parentId === null && u < users.length) inputs.set(id, users[u++].text);
    }
  }
  const byId = new Map(v1.runs.map((r) => [r.id, r]));
  const inputOf = (r) => {
    let root = r;
    for (let p = r.parentId; p !== null; ) {
      const parent = byId.get(p);
      if (!parent) break;
      root = parent;
      p = parent.parentId;
    }
    return inputs.get(root.id) ?? scriptInput(r.chain.script);
  };
  const runs = v1.runs.map(({ text: _t, toolResults, events, chain, progress, ...r }) => {
    const callIds = events.filter((e) => e.event === "tool.started").map((e) => e.data.call_id);
    const fileIds = toolResults.flatMap((t) => t.files.map((f) => f.id));
    const sent = events.filter((e) => e.event !== "run").length;
    const finished = r.status !== "running" && r.status !== "cancelling";
    return {
      ...r,
      chain: { input: inputOf({ id: r.id, parentId: r.parentId, chain }), answers: chain.answers, narrow: chain.narrow, earlierMessages: chain.earlierMessages },
      progress: progress ?? sent + (finished && r.status !== "cancelled" ? 1 : 0),
      callIds: callIds.length ? callIds : null,
      fileIds: fileIds.length ? fileIds : null
    };
  });
  const threads = v1.threads.map(({ messages: _m, ...t }) => t);
  return { ...v1, version: 2, runs, threads };
}
function scriptInput(s) {
  const parts = s.question ? [s.question] : [];
  if (s.durationMs !== void 0) parts.push(`@duration=${s.durationMs}ms`);
  for (const p of s.pauses) parts.push(pauseDirective(p));
  if (s.files.length) parts.push(`@files=${s.files.map((f) => f.named ? f.kind : `${f.kind}:noname`).join(",")}`);
  if (s.filename !== void 0) parts.push(`@filename=${encodeURIComponent(s.filename)}`);
  if (s.sizeBytes !== void 0) parts.push(`@size=${s.sizeBytes}`);
  if (s.fail) parts.push("@fail");
  if (s.status !== void 0) parts.push(`@status=${s.status}`);
  if (s.deltas !== 4) parts.push(`@deltas=${s.deltas}`);
  if (!s.search) parts.push("@nosearch");
  return parts.join(" ");
}
function pauseDirective(p) {
  if ("unknown" in p) return `@tool=${p.tool}`;
  switch (p.tool) {
    case "confirm_scope":
      return "cost" in p && p.cost !== void 0 ? `@confirm=${p.cost}` : "@confirm";
    case "ask_choice":
      return "allowMultiple" in p && p.allowMultiple ? "@choice=multi" : "@choice";
    case "request_quality_image":
      return "@image";
    default:
      return `@tool=${p.tool}`;
  }
}

// src/sim/snapshot.ts
function takeSnapshot(store, clock, origin, journalSeq) {
  const snap = {
    version: 2,
    origin,
    clockOffsetMs: clock.offsetMs,
    threadSeq: store.threadSeq,
    runs: [...store.runs.values()].map(savedRun),
    threads: [...store.threads.values()],
    files: [...store.files.values()],
    modelRuns: [...store.modelRuns.values()].map(({ done: _d, ...m }) => m),
    idempotency: [...store.idempotency.entries()]
  };
  if (journalSeq !== void 0) snap.journalSeq = journalSeq;
  return snap;
}
function readSnapshot(path) {
  let text;
  try {
    text = readFileSync2(path, "utf8");
  } catch (e) {
    if (e.code === "ENOENT") return null;
    throw e;
  }
  const snap = JSON.parse(text);
  if (snap?.version !== 1 && snap?.version !== 2 || !Array.isArray(snap.runs)) throw new Error(`${path}: not a simulator state file`);
  return snap.version === 1 ? fromVersion1(snap) : snap;
}
function writeSnapshot(path, snap) {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, JSON.stringify(snap));
  renameSync(tmp, path);
}
function restoreSnapshot(snap, into, journal = []) {
  const moved = (x) => snap.origin === into.origin ? x : JSON.parse(JSON.stringify(x).split(snap.origin).join(into.origin));
  const s = moved(snap);
  const { store } = into;
  into.clock.restoreOffset(s.clockOffsetMs);
  store.restoreThreadSeq(s.threadSeq);
  for (const t of s.threads) store.threads.set(t.id, t);
  for (const f of s.files) store.files.set(f.id, f);
  for (const [k, v] of s.idempotency) store.idempotency.set(k, v);
  const runs = s.runs.map((r) => ({ ...r, callIds: r.callIds ?? null, fileIds: r.fileIds ?? null, live: null, listeners: null }));
  for (const r of runs) store.runs.set(r.id, r);
  for (const m of s.modelRuns) store.modelRuns.set(m.id, { ...m, done: Promise.resolve() });
  if (journal.length) {
    const { clockOffsetMs } = applyJournal(store, moved(journal));
    if (clockOffsetMs !== null) into.clock.restoreOffset(clockOffsetMs);
  }
  for (const r of store.runs.values()) into.engine.resume(r);
  for (const m of store.modelRuns.values()) into.models.resume(m, Object.hasOwn(MODELS, m.modelId) ? MODELS[m.modelId] : void 0);
}

// src/sim/state-lock.ts
import { closeSync as closeSync2, openSync as openSync2, readFileSync as readFileSync3, renameSync as renameSync2, rmSync as rmSync2, writeFileSync as writeFileSync2, writeSync as writeSync2 } from "node:fs";
import { hostname } from "node:os";
var SimStateInUseError = class extends Error {
  code = "SIM_STATE_IN_USE";
  statePath;
  holder;
  constructor(statePath, holder) {
    super(`${statePath} is in use by process ${holder.pid} on ${holder.host}`);
    this.statePath = statePath;
    this.holder = holder;
  }
};
function lockPathOf(statePath) {
  return `${statePath}.lock`;
}
function lockState(statePath) {
  const path = lockPathOf(statePath);
  const mine = { pid: process.pid, host: hostname(), serving: null };
  for (let attempt = 0; ; attempt++) {
    let fd;
    try {
      fd = openSync2(path, "wx", 384);
    } catch (e) {
      if (e.code !== "EEXIST" || attempt > 2) throw e;
      const holder = readHolder(path);
      if (holder && isAlive(holder)) throw new SimStateInUseError(statePath, holder);
      try {
        renameSync2(path, `${path}.stale-${process.pid}`);
        rmSync2(`${path}.stale-${process.pid}`, { force: true });
      } catch {
      }
      continue;
    }
    try {
      writeSync2(fd, `${JSON.stringify(mine)}
`);
    } finally {
      closeSync2(fd);
    }
    let released = false;
    return {
      serve: (serving) => {
        writeFileSync2(`${path}.${process.pid}`, `${JSON.stringify({ ...mine, serving })}
`, { mode: 384 });
        renameSync2(`${path}.${process.pid}`, path);
      },
      release: () => {
        if (released) return;
        released = true;
        const now = readHolder(path);
        if (now && now.pid === mine.pid && now.host === mine.host) rmSync2(path, { force: true });
      }
    };
  }
}
function sharedSim(statePath) {
  const holder = readHolder(lockPathOf(statePath));
  if (!holder?.serving || holder.host !== hostname() || !isAlive(holder)) return null;
  return holder.serving;
}
function readHolder(lockPath) {
  let text;
  try {
    text = readFileSync3(lockPath, "utf8");
  } catch {
    return null;
  }
  try {
    const h = JSON.parse(text);
    if (typeof h.pid !== "number" || typeof h.host !== "string") return null;
    const s = h.serving;
    const serving = s && typeof s.url === "string" && typeof s.key === "string" ? { url: s.url, key: s.key } : null;
    return { pid: h.pid, host: h.host, serving };
  } catch {
    return null;
  }
}
function isAlive(h) {
  if (h.host !== hostname()) return true;
  if (h.pid === process.pid) return true;
  try {
    process.kill(h.pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}

// src/sim/timer-heap.ts
var TimerHeap = class {
  #heap = [];
  #seq = 0;
  #timer;
  #armedFor = Number.POSITIVE_INFINITY;
  #closed = false;
  #firing = false;
  /** Calls `fn` at `due` (performance.now() time), or soon after. Does nothing once closed. */
  at(due, fn) {
    if (this.#closed) return;
    this.#push({ due, seq: this.#seq++, fn });
    if (!this.#firing && due < this.#armedFor) this.#arm();
  }
  /** Entries waiting. */
  get size() {
    return this.#heap.length;
  }
  /** Drops every entry and refuses new ones. */
  close() {
    this.#closed = true;
    this.#heap = [];
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = void 0;
  }
  #arm() {
    const head = this.#heap[0];
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = void 0;
    this.#armedFor = Number.POSITIVE_INFINITY;
    if (!head) return;
    this.#armedFor = head.due;
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, head.due - performance.now()));
    this.#timer.unref();
  }
  #fire() {
    this.#timer = void 0;
    this.#armedFor = Number.POSITIVE_INFINITY;
    const until = performance.now() + 1;
    this.#firing = true;
    try {
      while (!this.#closed && this.#heap.length && this.#heap[0].due <= until) this.#pop().fn();
    } finally {
      this.#firing = false;
      if (!this.#closed) this.#arm();
    }
  }
  #push(e) {
    const h = this.#heap;
    let i = h.length;
    h.push(e);
    while (i > 0) {
      const p = i - 1 >> 1;
      if (!before(e, h[p])) break;
      h[i] = h[p];
      i = p;
    }
    h[i] = e;
  }
  #pop() {
    const h = this.#heap;
    const top = h[0];
    const last = h.pop();
    if (h.length) {
      let i = 0;
      for (; ; ) {
        const l = 2 * i + 1;
        if (l >= h.length) break;
        const r = l + 1;
        const c = r < h.length && before(h[r], h[l]) ? r : l;
        if (!before(h[c], last)) break;
        h[i] = h[c];
        i = c;
      }
      h[i] = last;
    }
    return top;
  }
};
function before(a, b) {
  return a.due < b.due || a.due === b.due && a.seq < b.seq;
}

// src/sim/timers.ts
var TimerSet = class {
  #timers = /* @__PURE__ */ new Set();
  #closed = false;
  #heap = new TimerHeap();
  /**
   * Calls `fn` at `due` (a performance.now() time). Cheaper than {@link timeout} when many are
   * pending (one Node timer for all of them) but cannot be cleared: `fn` checks whether it is
   * still wanted. Does nothing once closed.
   */
  at(due, fn) {
    this.#heap.at(due, fn);
  }
  /** Like setTimeout; returns the handle for {@link clear}. Does nothing once closed. */
  timeout(fn, ms) {
    if (this.#closed) return void 0;
    const t = setTimeout(() => {
      this.#timers.delete(t);
      fn();
    }, Math.max(0, ms));
    t.unref();
    this.#timers.add(t);
    return t;
  }
  /** Like setInterval. Does nothing once closed. */
  interval(fn, ms) {
    if (this.#closed) return void 0;
    const t = setInterval(fn, ms);
    t.unref();
    this.#timers.add(t);
    return t;
  }
  /** A promise that resolves after `ms` (or at once when closed). */
  delay(ms) {
    if (this.#closed || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      if (!this.timeout(resolve, ms)) resolve();
    });
  }
  /** Clears one timer or interval. */
  clear(t) {
    if (!t) return;
    clearTimeout(t);
    this.#timers.delete(t);
  }
  /** Clears everything and refuses new timers. */
  closeAll() {
    this.#closed = true;
    this.#heap.close();
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
  }
  /** Whether {@link closeAll} has run. */
  get isClosed() {
    return this.#closed;
  }
};

// src/sim/machine-short.ts
var SHORT = /* @__PURE__ */ new Set(["EMFILE", "ENFILE", "ENOMEM", "ENOBUFS", "ENOSPC"]);
function isMachineShort(err) {
  const code = err?.code;
  return typeof code === "string" && SHORT.has(code);
}

// src/sim/server.ts
var API_PREFIX = "/api/v1";
async function startSim(options = {}) {
  const opts = resolveOptions(options);
  const statePath = opts.statePath;
  const lock = statePath ? lockState(statePath) : null;
  let saved = null;
  let replay = [];
  let journal = null;
  try {
    if (statePath) {
      saved = readSnapshot(statePath);
      if (saved?.journalSeq !== void 0) replay = readJournal(journalPathOf(statePath), saved.journalSeq);
      journal = new SimJournal(journalPathOf(statePath), Math.max(saved?.journalSeq ?? 0, replay.at(-1)?.n ?? 0));
    }
  } catch (e) {
    lock?.release();
    throw e;
  }
  let origin = "";
  const timers = new TimerSet();
  const clock = new SimClock();
  const counters = new CounterBook();
  const faults = new FaultPlan(opts.seed);
  const store = new SimStore();
  const ledger = new RequestLedger();
  const baseUrl = () => `${origin}${API_PREFIX}`;
  const engine = new RunEngine({ store, counters, clock, timers, baseUrl, defaultDurationMs: opts.defaultDurationMs, runTimes: opts.runTimes, journal });
  const models = new ModelJobs({ store, counters, clock, timers, baseUrl, origin: () => origin, modelJobMs: opts.modelJobMs, journal });
  const deps = { opts, store, engine, models, counters, clock, timers, faults, ledger, journal, baseUrl, origin: () => origin };
  const handle = requestHandler(deps);
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { error: { code: "internal_error", message: "simulator error" } });
      else res.destroy();
    });
  });
  const listen = (port2) => new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port2, opts.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const previousPort = saved && opts.port === 0 ? Number(new URL(saved.origin).port) : 0;
  try {
    try {
      await listen(previousPort || opts.port);
    } catch (e) {
      if (!previousPort) throw e;
      await listen(0);
    }
  } catch (e) {
    journal?.close();
    lock?.release();
    throw e;
  }
  server.on("error", (e) => {
    if (!isMachineShort(e)) throw e;
  });
  const { port } = server.address();
  origin = `http://${opts.host.includes(":") ? `[${opts.host}]` : opts.host}:${port}`;
  let savedVersion = -1;
  let nextSaveAt = 0;
  const save = (force = true) => {
    if (!statePath || !journal || store.version === savedVersion) return true;
    const t = performance.now();
    if (!force && t < nextSaveAt) return true;
    try {
      writeSnapshot(statePath, takeSnapshot(store, clock, origin, journal.seq));
    } catch (e) {
      if (!isMachineShort(e)) throw e;
      return false;
    }
    savedVersion = store.version;
    journal.truncate();
    const now = performance.now();
    nextSaveAt = now + 19 * (now - t);
    return true;
  };
  if (saved) restoreSnapshot(saved, { store, clock, engine, models, origin }, replay);
  if (journal) {
    const j = journal;
    clock.onAdvance = (offsetMs) => {
      j.clockMoved(offsetMs);
      store.touch();
    };
    save();
    timers.interval(() => save(false), 500);
  }
  if (lock && opts.serveState) lock.serve({ url: baseUrl(), key: Object.keys(opts.keys)[0] ?? "" });
  let closing;
  return {
    url: baseUrl(),
    origin,
    keys: Object.keys(opts.keys),
    faults: { set: (f) => faults.set(f), get: () => faults.get(), clear: () => faults.clear() },
    clock: { now: () => clock.now(), advance: (ms) => clock.advance(ms) },
    counters: () => counters.snapshot(),
    resetCounters: () => counters.reset(),
    ledger: () => ledger.read(store),
    close: () => closing ??= new Promise((resolve) => {
      journal?.close(save());
      lock?.release();
      timers.closeAll();
      server.close(() => resolve());
      server.closeAllConnections();
    })
  };
}
function requestHandler(d) {
  const routes = apiRoutes(d);
  return async (req, res) => {
    const arrivedAt = performance.now();
    const requestId = newRequestId();
    res.setHeader("x-request-id", requestId);
    const { path, query } = splitTarget(req.url ?? "/");
    const send = (r) => sendJson(res, r.status, r.body, r.headers);
    const fail = (e) => send(errorReply(e, requestId));
    if (path.startsWith("/_sim/")) {
      try {
        send(await control(req, path, d) ?? errorReply(new HttpError(404, "not_found", `no control at ${path}`), requestId));
      } catch (e) {
        if (e instanceof HttpError) fail(e);
        else throw e;
      }
      return;
    }
    if (path !== API_PREFIX && !path.startsWith(`${API_PREFIX}/`)) return fail(new HttpError(404, "not_found", `nothing at ${path}`));
    const method = req.method ?? "GET";
    const match = matchRoute(routes, method, path.slice(API_PREFIX.length) || "/");
    const routeKey = match.kind === "none" ? "unmatched" : match.routeKey;
    d.counters.request(routeKey);
    await d.timers.delay(d.faults.get().latencyMs);
    if (res.destroyed) return;
    const account = accountOf(req, d.opts.keys);
    if (account === void 0) {
      return fail(new HttpError(401, "unauthorized", "missing or unknown API key", { "www-authenticate": "Bearer" }));
    }
    if (match.kind === "none") return fail(new HttpError(404, "not_found", `no route ${method} ${path}`));
    if (match.kind === "method") {
      return fail(new HttpError(405, "method_not_allowed", `${method} not allowed on ${path}`, { allow: match.allow.join(", ") }));
    }
    const before2 = d.faults.drawBefore(routeKey);
    if (before2) {
      d.counters.fault(before2);
      if (before2 === "dropBefore") return void req.socket.destroy();
      if (before2 === "rate429") {
        const after = String(d.faults.get().retryAfterSeconds);
        return fail(new HttpError(429, "rate_limited", "rate limited (injected)", { "retry-after": after }));
      }
      const status = d.faults.draw5xx();
      return fail(new HttpError(status, status === 500 ? "internal_error" : status === 502 ? "bad_gateway" : "unavailable", `server error (injected ${status})`));
    }
    const afterFault = d.faults.drawAfter(routeKey);
    if (match.route.streams && afterFault === "error5xxAfter") {
      d.counters.fault(afterFault);
      return fail(new HttpError(500, "internal_error", "server error (injected 500)"));
    }
    const ctx = {
      req,
      res,
      account,
      params: match.params,
      query,
      requestId,
      routeKey,
      scope: `${method} ${path}`,
      afterFault: match.route.streams ? afterFault : null,
      arrivedAt
    };
    let reply2;
    try {
      reply2 = await match.route.handler(ctx);
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      reply2 = errorReply(e, requestId);
    }
    if (reply2 === "streamed" || res.destroyed) return;
    if (afterFault === "error5xxAfter") {
      d.counters.fault(afterFault);
      return fail(new HttpError(500, "internal_error", "server error (injected 500, after the work was done)"));
    }
    if (afterFault === "dropAfter") {
      d.counters.fault(afterFault);
      return void req.socket.destroy();
    }
    send(reply2);
  };
}
var PLAIN_PATH = /^\/[\w\-/]*$/;
var NO_QUERY = new URLSearchParams();
function splitTarget(target) {
  const q = target.indexOf("?");
  const rawPath = q < 0 ? target : target.slice(0, q);
  if (PLAIN_PATH.test(rawPath)) {
    return { path: rawPath, query: q < 0 ? NO_QUERY : new URLSearchParams(target.slice(q + 1)) };
  }
  const url = new URL(target, "http://sim.invalid");
  return { path: url.pathname, query: url.searchParams };
}
function accountOf(req, keys) {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
  const key = m?.[1];
  return key !== void 0 && Object.hasOwn(keys, key) ? keys[key] : void 0;
}

// src/sim/serve.ts
var DEFAULT_SIM_PORT = 8787;
async function serveSim(opts = {}) {
  const { signal, ...simOpts } = opts;
  const sim = await startSim({ port: DEFAULT_SIM_PORT, ...simOpts });
  if (signal) {
    if (signal.aborted) await sim.close();
    else signal.addEventListener("abort", () => void sim.close(), { once: true });
  }
  return sim;
}

export {
  SimStateInUseError,
  lockPathOf,
  sharedSim,
  startSim,
  DEFAULT_SIM_PORT,
  serveSim
};
//# sourceMappingURL=chunk-OW7E2O6L.mjs.map
