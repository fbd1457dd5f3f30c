import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  checkUnchanged,
  defaultBatchName
} from "./chunk-CHVFPQGZ.mjs";
import {
  Scheduler,
  StateTally,
  errorKind,
  isTryLater,
  tryLater
} from "./chunk-TLQTFDDA.mjs";
import {
  isModelRunFinished,
  isRunFailure
} from "./chunk-HDST666U.mjs";
import {
  exportFile
} from "./chunk-5GMYQBJP.mjs";
import {
  notifyOver
} from "./chunk-QFB6ZTTJ.mjs";
import {
  systemClock
} from "./chunk-64FYAIQV.mjs";
import {
  classifyFailure
} from "./chunk-YHPNXTWT.mjs";
import {
  formatFromName,
  problemsOf,
  readTable
} from "./chunk-UZQXFT2K.mjs";
import {
  hashFile
} from "./chunk-UPSBM6NF.mjs";
import {
  isRawNumber,
  parseJsonExactly
} from "./chunk-ADUNF5BB.mjs";
import {
  idempotencyKey
} from "./chunk-Q6TQJGNT.mjs";
import {
  InputError
} from "./chunk-4EMWZ36I.mjs";

// src/models/coerce.ts
var INTEGER = /^[+-]?\d+$/;
var DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
var TRUE_WORDS = /* @__PURE__ */ new Set(["true", "1", "yes"]);
var FALSE_WORDS = /* @__PURE__ */ new Set(["false", "0", "no"]);
function show(raw) {
  const s = raw.length > 40 ? `${raw.slice(0, 39)}\u2026` : raw;
  return JSON.stringify(s);
}
function ok(value) {
  return { ok: true, value };
}
function bad(reason) {
  return { ok: false, reason };
}
function normaliseType(type) {
  return type ? type.trim().toLowerCase() : null;
}
function coerceText(type, raw) {
  const t = normaliseType(type);
  const s = raw.trim();
  switch (t) {
    case "integer":
    case "int": {
      if (!INTEGER.test(s)) return bad(`expected an integer, got ${show(raw)}`);
      const n = Number(s);
      return Number.isSafeInteger(n) ? ok(n) : bad(`integer ${show(raw)} is too large to send exactly`);
    }
    case "number":
    case "float": {
      if (!DECIMAL.test(s)) return bad(`expected a number, got ${show(raw)}`);
      const n = Number(s);
      return Number.isFinite(n) ? ok(n) : bad(`number ${show(raw)} is out of range`);
    }
    case "boolean":
    case "bool": {
      const w = s.toLowerCase();
      if (TRUE_WORDS.has(w)) return ok(true);
      if (FALSE_WORDS.has(w)) return ok(false);
      return bad(`expected a boolean (true/false/1/0/yes/no), got ${show(raw)}`);
    }
    case "object":
    case "array":
    case "json":
      return parseJsonCell(t, raw);
    default:
      return ok(raw);
  }
}
function parseJsonCell(t, raw) {
  const parsed = parseJsonExactly(raw);
  if (!parsed.ok) {
    const why = parsed.reason.replace(/^invalid JSON: /, "").replace(/ at column \d+.*$/, "");
    return bad(`expected ${t === "array" ? "a JSON array" : t === "object" ? "a JSON object" : "JSON"}, got ${show(raw)} (${why})`);
  }
  return checkValue(t, isRawNumber(parsed.value) ? Number(parsed.value.rawJSON) : parsed.value);
}
function want(v, isWanted, what) {
  return isWanted ? ok(v) : bad(`expected ${what}, got ${kindOf(v)}`);
}
function kindOf(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  if (typeof v === "number") return Number.isInteger(v) ? "an integer" : "a number";
  return `a ${typeof v}`;
}
function checkValue(type, v) {
  const t = normaliseType(type);
  switch (t) {
    case "integer":
    case "int":
      return want(v, typeof v === "number" && Number.isSafeInteger(v), "an integer");
    case "number":
    case "float":
      return want(v, typeof v === "number" && Number.isFinite(v), "a number");
    case "boolean":
    case "bool":
      return want(v, typeof v === "boolean", "a boolean");
    case "string":
      return want(v, typeof v === "string", "a string");
    case "object":
      return want(v, typeof v === "object" && v !== null && !Array.isArray(v), "a JSON object");
    case "array":
      return want(v, Array.isArray(v), "a JSON array");
    case "file":
      return want(v, typeof v === "string" || typeof v === "object" && v !== null && !Array.isArray(v), "a file id");
    default:
      return ok(v);
  }
}

// src/models/validate.ts
function inputsByName(fields) {
  return new Map(fields.map((f) => [f.name, f]));
}
function classifyField(name, inputs, modelId) {
  const field = inputs.get(name);
  if (field) return { kind: "input", field };
  if (name === "id") return { kind: "id" };
  if (name.startsWith("meta.") && name.length > 5) return { kind: "meta", key: name.slice(5) };
  const names = [...inputs.keys()];
  const near = names.find((n) => n.toLowerCase() === name.trim().toLowerCase());
  const hint = near ? ` (did you mean "${near}"? names are case-sensitive)` : "";
  const list = names.length ? names.join(", ") : "none";
  return `not an input of model ${modelId}${hint}; its inputs: ${list}. Name the column meta.${name} to keep it with the row, or id for the row id`;
}
function checkInputs(fields, given, source) {
  const inputs = {};
  const problems = [];
  for (const f of fields) {
    const raw = given.get(f.name);
    const absent = raw === void 0 || raw === null || source === "text" && raw === "";
    if (absent) {
      if (f.required) problems.push({ field: f.name, reason: `required input missing${typeHint(f)}` });
      continue;
    }
    const r = source === "text" ? coerceText(f.type, String(raw)) : checkValue(f.type, raw);
    if (r.ok) inputs[f.name] = r.value;
    else problems.push({ field: f.name, reason: r.reason });
  }
  return { inputs, problems };
}
function typeHint(f) {
  const t = normaliseType(f.type);
  return t ? ` (${t})` : "";
}

// src/models/input-file-schema.ts
function modelInputSchema(spec) {
  const inputs = inputsByName(spec.inputs);
  return {
    noun: "input rows",
    csvHeader: (file, names, line) => csvHeader(spec, inputs, file, names, line),
    jsonRow: (file, value, line, ordinal) => jsonRow(spec, inputs, file, value, line, ordinal)
  };
}
function csvHeader(spec, inputs, file, written, line) {
  const names = written.map((h) => h.trim());
  const roles = [];
  const problems = [];
  names.forEach((name, i) => {
    const role = name === "" ? `column ${i + 1} has no name` : classifyField(name, inputs, spec.modelId);
    if (typeof role === "string") problems.push({ file, line, field: name || `column ${i + 1}`, reason: role });
    else if (names.indexOf(name) !== i) problems.push({ file, line, field: name, reason: "column appears twice" });
    else roles.push(role);
  });
  for (const f of spec.inputs) {
    if (f.required && !names.includes(f.name)) problems.push({ file, line, field: f.name, reason: "required input has no column" });
  }
  if (problems.length > 0) return problems;
  return (fields, at, ordinal) => {
    const given = /* @__PURE__ */ new Map();
    const meta = {};
    let id = "";
    roles.forEach((role, i) => {
      const cell = fields[i] ?? "";
      if (role.kind === "input") given.set(role.field.name, cell);
      else if (role.kind === "id") id = cell.trim();
      else setKey(meta, role.key, cell);
    });
    return checked(spec, file, given, "text", { line: at, id: id || String(ordinal), meta }, []);
  };
}
function jsonRow(spec, inputs, file, value, line, ordinal) {
  if (typeof value !== "object" || value === null || Array.isArray(value) || isRawNumber(value)) {
    return { ok: false, problem: { file, line, reason: "expected a JSON object of inputs" } };
  }
  const given = /* @__PURE__ */ new Map();
  const meta = {};
  const problems = [];
  let id = String(ordinal);
  const record = value;
  for (const key of Object.keys(record)) {
    const v = record[key];
    if (key === "meta" && !inputs.has(key) && isPlainObject(v)) {
      for (const k of Object.keys(v)) setKey(meta, k, v[k]);
      continue;
    }
    const role = classifyField(key, inputs, spec.modelId);
    if (typeof role === "string") problems.push({ file, line, field: key, reason: role });
    else if (role.kind === "input") given.set(key, isRawNumber(v) ? Number(v.rawJSON) : v);
    else if (role.kind === "meta") setKey(meta, role.key, v);
    else if (typeof v === "string" && v.trim() !== "") id = v.trim();
    else if (isRawNumber(v)) id = v.rawJSON;
    else if (typeof v === "number" && Number.isFinite(v)) id = String(v);
    else problems.push({ file, line, field: "id", reason: "must be a non-empty string or a number" });
  }
  return checked(spec, file, given, "json", { line, id, meta }, problems);
}
function checked(spec, file, given, source, row, problems) {
  const result = checkInputs(spec.inputs, given, source);
  for (const p of result.problems) problems.push({ file, line: row.line, field: p.field, reason: p.reason });
  if (problems.length === 0) return { ok: true, row: { ...row, inputs: result.inputs } };
  if (problems.length === 1) return { ok: false, problem: problems[0] };
  return { ok: false, problem: problems[0], more: problems.slice(1) };
}
function isPlainObject(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !isRawNumber(v);
}
function setKey(target, name, value) {
  if (name === "__proto__") Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  else target[name] = value;
}

// src/models/input-file.ts
import { createHash } from "node:crypto";
var MAX_PROBLEMS = 1e3;
function inputFormat(path) {
  const format = formatFromName(path);
  if (format) return format;
  throw new InputError([{ file: path, reason: "expected a .csv or .jsonl (.ndjson) file of model inputs" }]);
}
function streamModelInputs(path, spec, opts = {}) {
  return readTable(path, modelInputSchema(spec), { format: inputFormat(path), tap: opts.tap, checkIds: opts.checkIds ?? true });
}
async function readModelInputs(path, spec) {
  const tap = { hash: createHash("sha256"), complete: false };
  let rows = [];
  const problems = [];
  let dropped = 0;
  for await (const r of streamModelInputs(path, spec, { tap })) {
    if (r.ok) {
      if (problems.length === 0) rows.push(r.row);
      continue;
    }
    rows = [];
    for (const p of problemsOf(r)) {
      if (problems.length < MAX_PROBLEMS) problems.push(p);
      else dropped++;
    }
  }
  if (dropped > 0) problems.push({ file: path, reason: `\u2026 and ${dropped} more problems` });
  const sha256 = tap.complete ? tap.hash.digest("hex") : await hashFile(path);
  return { rows, problems, sha256 };
}

// src/models/file-outputs.ts
function isObject(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
function asRef(v, output, modelId) {
  if (!isObject(v) || typeof v.id !== "string" || typeof v.url !== "string") return null;
  return {
    id: v.id,
    url: v.url,
    // The interface's `role` names the output field that refers to the file.
    role: typeof v.role === "string" ? v.role : output,
    name: typeof v.name === "string" ? v.name : null,
    tool: modelId
  };
}
function fileOutputs(outputs, modelId) {
  if (!outputs) return [];
  const out = [];
  const seen = /* @__PURE__ */ new Set();
  for (const [name, v] of Object.entries(outputs)) {
    for (const candidate of Array.isArray(v) ? v : [v]) {
      const ref = asRef(candidate, name, modelId);
      if (ref && !seen.has(ref.id)) {
        seen.add(ref.id);
        out.push(ref);
      }
    }
  }
  return out;
}

// src/models/poll-plan.ts
var PollPlan = class {
  #interval;
  #step;
  #minFirst;
  #window;
  #ages = [];
  constructor(o = {}) {
    this.#interval = o.intervalMs ?? 3e3;
    this.#step = Math.min(o.stepMs ?? 500, this.#interval);
    this.#minFirst = Math.min(o.minFirstMs ?? 1e3, this.#interval);
    this.#window = o.window ?? 64;
  }
  /** Expected age of a job when it finishes, or null before any finished. */
  get estimateMs() {
    if (this.#ages.length === 0) return null;
    const sorted = [...this.#ages].sort((a, b) => a - b);
    return sorted[Math.floor((sorted.length - 1) * 0.2)] ?? null;
  }
  /** The short gap: small against the jobs' length, so a finished job waits little for its read. */
  #currentStep() {
    const est = this.estimateMs;
    return est === null ? this.#step : Math.min(this.#step, Math.max(50, est * 0.05));
  }
  /** Wait before the first read of a job admitted `ageMs` ago. */
  firstDelay(ageMs) {
    const est = this.estimateMs;
    const target = est === null ? this.#minFirst : Math.max(this.#minFirst, est - this.#currentStep());
    return Math.max(0, target - ageMs);
  }
  /** Gap after the `reads`-th read (1-based) that still saw the job running. */
  nextDelay(reads) {
    return Math.min(this.#interval, this.#currentStep() * 1.5 ** Math.max(0, reads - 1));
  }
  /** Records the age at which a job admitted by this process was first seen finished. */
  observe(doneAgeMs) {
    if (!Number.isFinite(doneAgeMs) || doneAgeMs < 0) return;
    this.#ages.push(doneAgeMs);
    if (this.#ages.length > this.#window) this.#ages.shift();
  }
};

// src/models/load-model-batch.ts
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
function defaultModelBatchName(modelId, file) {
  return `${modelId}-${defaultBatchName(file)}`;
}
async function openModelBatch(o) {
  const name = o.name ?? defaultModelBatchName(o.modelId, o.file);
  const existing = await o.store.findBatch(name);
  if (existing) {
    const mb = await o.store.modelBatch(existing.id);
    if (!mb) throw new InputError(`batch "${name}" is a batch of agent runs, not of model runs: pick another --batch name`);
    if (mb.modelId !== o.modelId)
      throw new InputError(`batch "${name}" runs model ${mb.modelId}, not ${o.modelId}: pick another --batch name`);
    await checkUnchanged(existing, o.file);
    await o.store.updateBatchSettings(existing.id, o.settings, null, existing.baseUrl);
    if (mb.mode !== o.mode) await o.store.setModelMode(existing.id, o.mode);
    return { batch: await o.store.findBatch(existing.id) ?? existing, resumed: true };
  }
  const description = await o.client.describeModel(o.modelId);
  const read = await readModelInputs(o.file, { modelId: o.modelId, inputs: description.inputs });
  if (read.problems.length > 0) throw new InputError(read.problems);
  const id = randomUUID();
  await o.store.loadModelBatch(
    {
      id,
      name,
      kind: "models",
      sourcePath: resolve(o.file),
      sourceSha256: read.sha256,
      baseUrl: o.baseUrl,
      settings: o.settings,
      policy: null
    },
    { modelId: o.modelId, mode: o.mode, description },
    read.rows
  );
  const batch = await o.store.findBatch(id);
  if (!batch) throw new Error("batch vanished after load");
  return { batch, resumed: false };
}

// src/models/failure-kind.ts
function submitFailure(err, aborted) {
  const v = classifyFailure({ error: err, aborted, request: "submit", idempotent: false });
  switch (v.action) {
    case "abort":
      return "aborted";
    case "stop":
      return "fatal";
    case "retry":
      return v.arrived === "no" ? "unsent" : "unknown";
    case "unknown":
      return "unknown";
    case "fail":
    case "gone":
      return "permanent";
    case "bug":
      return "bug";
  }
}
function readFailure(err, aborted) {
  const v = classifyFailure({ error: err, aborted, request: "read" });
  switch (v.action) {
    case "abort":
      return "aborted";
    case "stop":
      return "fatal";
    case "retry":
    case "unknown":
      return "transient";
    case "gone":
      return "gone";
    case "fail":
    case "bug":
      return "bug";
  }
}

// src/models/read-job.ts
async function readJob(o) {
  let where = o.pollUrl ?? o.id;
  let reads = 0;
  let failures = 0;
  await o.clock.sleep(o.plan.firstDelay(o.admittedAt === null ? Infinity : o.clock.now() - o.admittedAt), o.signal);
  for (; ; ) {
    if (o.signal.aborted) return { kind: "stopped", reads };
    let run;
    try {
      run = await o.client.getModelRun(where, { signal: o.signal });
      reads++;
      failures = 0;
    } catch (err) {
      if (err instanceof InputError && where !== o.id) {
        where = o.id;
        continue;
      }
      const kind = readFailure(err, o.signal.aborted);
      const message = err instanceof Error ? err.message : String(err);
      if (kind === "aborted") return { kind: "stopped", reads };
      if (kind === "fatal") return { kind: "fatal", reads, error: err };
      if (kind === "gone") return { kind: "gone", reads, message: `model run ${o.id} is not known to the service (${message})` };
      if (kind === "bug") throw err;
      if (++failures >= o.maxFailures) return { kind: "unreadable", reads, message: `model run ${o.id} could not be read (${message})` };
      await o.clock.sleep(o.plan.nextDelay(failures), o.signal);
      continue;
    }
    if (isModelRunFinished(run)) {
      if (o.admittedAt !== null) o.plan.observe(o.clock.now() - o.admittedAt);
      return { kind: "finished", run, reads };
    }
    await o.clock.sleep(o.plan.nextDelay(reads), o.signal);
  }
}

// src/models/model-batch-runner.ts
var ModelBatchRunner = class {
  #o;
  #hard = new AbortController();
  #plan;
  #clock;
  #admittedAt = /* @__PURE__ */ new Map();
  /** Rows whose last create surely did not arrive (or may be re-sent): their next send is safe. */
  #resendable = /* @__PURE__ */ new Set();
  #model = null;
  #scheduler = null;
  #tally = null;
  #credits = 0;
  #stalled = 0;
  #stopped = false;
  constructor(o) {
    this.#o = o;
    this.#clock = o.clock ?? systemClock;
    this.#plan = new PollPlan(o.poll);
  }
  /** Stops admitting and stops reading; create requests in flight finish and are recorded. */
  stop() {
    this.#stopped = true;
    this.#scheduler?.stop();
  }
  /** Also aborts create requests in flight (their outcome becomes unknown). */
  abort() {
    this.stop();
    this.#hard.abort();
  }
  #emit(e) {
    if (e.type === "item") this.#tally?.move(e.id, e.state);
    this.#o.onEvent?.(e);
  }
  /** Runs until every row is finished (or left unknown), or stop() is called. */
  async run() {
    const { store, batch } = this.#o;
    this.#model = await store.modelBatch(batch.id);
    if (!this.#model) throw new InputError(`batch ${batch.name} is not a models batch`);
    this.#credits = (await store.modelCredits(batch.id)).spent;
    const counts = await store.itemCounts(batch.id);
    this.#tally = new StateTally(counts);
    const resubmit = this.#o.resubmitUnknown ?? false;
    const unknown = (await store.listItems(batch.id, { states: ["submitting"] })).filter((i) => i.owner === null);
    this.#emit({
      type: "start",
      batch: batch.name,
      batchId: batch.id,
      model: this.#model.modelId,
      total: batch.totalItems,
      counts: this.#tally.counts,
      resumed: counts.running,
      unknown: unknown.length,
      resubmitUnknown: resubmit
    });
    if (unknown.length > 0 && !resubmit)
      this.#emit({ type: "warning", message: `${unknown.length} rows have an unknown submission outcome and are not re-sent (add --resubmit-unknown to re-send them with their stored key): ${unknown.slice(0, 10).map((i) => i.id).join(", ")}${unknown.length > 10 ? " \u2026" : ""}` });
    if (resubmit) for (const it of unknown) this.#resendable.add(it.id);
    this.#scheduler = new Scheduler({
      store,
      batch,
      cap: this.#o.concurrency ?? batch.settings.concurrency,
      step: (item, ctx) => this.#step(item, ctx),
      classify: errorKind,
      markError: async (item, message) => {
        await store.markModelError(item.batchId, item.id, message);
        this.#emit({ type: "item", id: item.id, state: "error", modelRunId: null, status: null, credits: null, detail: message });
      },
      onEvent: (e) => {
        if (e.type === "retry-later" || e.type === "warning" || e.type === "cap") this.#emit(e);
        else if (e.type === "tick") this.#progress();
      },
      // Progress after each row, as before the scheduler: the last report is the batch's end state.
      onLeave: () => this.#progress(),
      retryLaterMs: this.#o.retryLaterMs,
      clock: this.#clock,
      leaseMs: this.#o.leaseMs,
      takeOver: resubmit ? ["submitting", "running"] : ["running"]
    });
    if (this.#stopped) this.#scheduler.stop();
    const stopThrottle = this.#o.client.onThrottle((e) => e.admission && this.#scheduler?.throttled());
    let r;
    try {
      r = await this.#scheduler.run();
    } finally {
      stopThrottle();
    }
    const end = await store.itemCounts(batch.id);
    const left = (await store.listItems(batch.id, { states: ["submitting"] })).map((i) => i.id);
    const interrupted = r.interrupted || this.#stopped && !r.fatal;
    const credits = await store.modelCredits(batch.id);
    const stalled = r.stalled + this.#stalled;
    this.#emit({ type: "end", counts: end, interrupted, stalled, fatal: r.fatal?.message ?? null, unknown: left, credits: credits.spent });
    return { counts: end, interrupted, stalled, fatal: r.fatal, unknown: left, credits };
  }
  #progress() {
    if (!this.#tally || !this.#scheduler) return;
    this.#emit({ type: "progress", counts: this.#tally.counts, inFlight: this.#scheduler.inFlight, total: this.#o.batch.totalItems, credits: this.#credits });
  }
  async #step(item, ctx) {
    this.#tally?.track(item.id, ctx.fresh ? "queued" : item.state);
    if (ctx.fresh) this.#emit({ type: "item", id: item.id, state: "submitting", modelRunId: null, status: null, credits: null });
    if (item.state === "submitting") {
      const sent = await this.#submit(item, ctx.fresh || this.#resendable.has(item.id));
      if (isTryLater(sent)) return sent;
      if (sent !== "running") return sent === "left" ? null : this.#o.store.getItem(item.batchId, item.id);
    }
    const now = await this.#o.store.getItem(item.batchId, item.id);
    if (!now || now.state !== "running") return now;
    return this.#follow(now, ctx);
  }
  /** Sends a row's create request once (its key stored first); returns where the row is now. */
  async #submit(item, safe) {
    const { store, client } = this.#o;
    const model = this.#model;
    const mr = await store.modelRun(item.batchId, item.id);
    if (!mr) throw new Error(`row ${item.id} has no model run record`);
    if (!safe) return "left";
    const key = mr.idempotencyKey ?? item.pendingKey ?? idempotencyKey(item.batchId, item.id, 0, item.attempt);
    const mode = mr.mode ?? model.mode;
    await store.markModelSubmitting(item.batchId, item.id, key, mode, mr.idempotencyKey !== null);
    this.#resendable.delete(item.id);
    try {
      const body = mode ? { inputs: mr.inputs, mode } : { inputs: mr.inputs };
      const { httpStatus, run } = await client.runModel(model.modelId, body, { idempotencyKey: key, signal: this.#hard.signal });
      if (isModelRunFinished(run)) {
        await this.#finish(item, run, httpStatus, 0);
        return "finished";
      }
      this.#admittedAt.set(item.id, this.#clock.now());
      await store.markModelAdmitted(item.batchId, item.id, httpStatus, report(run));
      this.#emit({ type: "item", id: item.id, state: "running", modelRunId: run.id, status: run.status, credits: run.credits });
      return "running";
    } catch (err) {
      return this.#submitFailed(item, err);
    }
  }
  async #submitFailed(item, err) {
    const { store } = this.#o;
    const message = err instanceof Error ? err.message : String(err);
    switch (submitFailure(err, this.#hard.signal.aborted)) {
      case "aborted":
        return "left";
      case "fatal":
        await store.markModelUnsent(item.batchId, item.id);
        this.#emit({ type: "item", id: item.id, state: "queued", modelRunId: null, status: null, credits: null });
        throw err;
      case "unsent":
        this.#resendable.add(item.id);
        return tryLater(message);
      case "unknown":
        if (this.#o.resubmitUnknown && !this.#stopped) {
          this.#resendable.add(item.id);
          return tryLater(message);
        }
        this.#emit({ type: "item", id: item.id, state: "submitting", modelRunId: null, status: null, credits: null, detail: `outcome unknown: ${message}` });
        return "left";
      case "permanent":
      case "bug": {
        const final = submitFailure(err, false) === "bug" ? `internal error: ${message}` : message;
        await store.markModelError(item.batchId, item.id, final);
        this.#emit({ type: "item", id: item.id, state: "error", modelRunId: null, status: null, credits: null, detail: final });
        return "finished";
      }
    }
  }
  async #follow(item, ctx) {
    const { store } = this.#o;
    const mr = await store.modelRun(item.batchId, item.id);
    const id = mr?.modelRunId ?? item.runId;
    if (!mr || !id) throw new Error(`row ${item.id} is running without a model run id`);
    const r = await readJob({
      client: this.#o.client,
      plan: this.#plan,
      id,
      pollUrl: mr.pollUrl,
      admittedAt: this.#admittedAt.get(item.id) ?? null,
      signal: ctx.signal,
      maxFailures: this.#o.maxReadFailures ?? 10,
      clock: this.#clock
    });
    switch (r.kind) {
      case "finished":
        ctx.release();
        await this.#finish(item, r.run, null, r.reads);
        return store.getItem(item.batchId, item.id);
      case "gone":
        await store.markModelError(item.batchId, item.id, r.message, r.reads);
        this.#emit({ type: "item", id: item.id, state: "error", modelRunId: id, status: null, credits: null, detail: r.message });
        return store.getItem(item.batchId, item.id);
      case "unreadable":
        this.#stalled++;
        this.#emit({ type: "warning", message: `row ${item.id}: ${r.message}; run the command again later` });
        break;
      case "fatal":
        await store.addModelPolls(item.batchId, item.id, r.reads);
        throw r.error;
      case "stopped":
        break;
    }
    await store.addModelPolls(item.batchId, item.id, r.reads);
    return null;
  }
  async #finish(item, run, httpStatus, polls) {
    const model = this.#model;
    const files = fileOutputs(run.outputs, model.modelId);
    const createdAt = typeof run.created_at === "string" ? run.created_at : null;
    const failed = isRunFailure(run.status);
    await this.#o.store.markModelFinished(item.batchId, item.id, { ...report(run), files, createdAt }, { httpStatus, failed, polls });
    this.#admittedAt.delete(item.id);
    this.#credits += run.credits ?? 0;
    this.#emit({
      type: "item",
      id: item.id,
      state: failed ? "failed" : "completed",
      modelRunId: run.id,
      status: run.status,
      credits: run.credits,
      ...run.error ? { detail: run.error } : {}
    });
    if (files.length > 0) this.#o.onFiles?.(item.id, files);
  }
};
function report(run) {
  return { id: run.id, status: run.status, outputs: run.outputs, error: run.error, credits: run.credits, pollUrl: run.poll_url };
}

// src/models/results.ts
import { createWriteStream } from "node:fs";
import { rename } from "node:fs/promises";
import { once } from "node:events";
function rowStatus(item, serviceStatus) {
  switch (item.state) {
    case "completed":
    case "failed":
      return serviceStatus ?? item.state;
    case "submitting":
      return "unknown";
    case "waiting":
    case "held":
      return "running";
    default:
      return item.state;
  }
}
async function* modelResultRows(store, batch, pageSize = 500) {
  for (let after = -1; ; ) {
    const [runs, aggs] = await Promise.all([store.modelRuns(batch.id, after, pageSize), store.aggregates(batch.id, after, pageSize)]);
    if (aggs.length === 0) return;
    const byId = new Map(runs.map((r) => [r.item.id, r.run]));
    for (const a of aggs) {
      const item = a.item;
      after = item.seq;
      const mr = byId.get(item.id) ?? null;
      yield {
        id: item.id,
        status: rowStatus(item, mr?.status ?? null),
        outputs: mr?.outputs ?? null,
        // The service's reason verbatim; our own only for rows the service never ran.
        error: mr?.error ?? (item.state === "error" ? item.error : null),
        credits: mr?.credits ?? null,
        model_run_id: mr?.modelRunId ?? null,
        files: a.files.map(exportFile)
      };
    }
  }
}
async function writeModelResults(store, batch, path) {
  const tmp = `${path}.partial`;
  const out = createWriteStream(tmp);
  let n = 0;
  try {
    for await (const row of modelResultRows(store, batch)) {
      n++;
      if (!out.write(`${JSON.stringify(row)}
`)) await once(out, "drain");
    }
  } finally {
    out.end();
    await once(out, "close");
  }
  await rename(tmp, path);
  return n;
}
async function modelBatchStatus(store, batch) {
  const mb = await store.modelBatch(batch.id);
  if (!mb) return null;
  return {
    batch: batch.name,
    batchId: batch.id,
    model: mb.modelId,
    mode: mb.mode,
    total: batch.totalItems,
    counts: await store.itemCounts(batch.id),
    credits: await store.modelCredits(batch.id),
    unknownSubmission: (await store.listItems(batch.id, { states: ["submitting"] })).map((i) => i.id),
    polls: await store.modelPolls(batch.id),
    files: await store.fileCounts(batch.id),
    failures: (await store.listItems(batch.id, { states: ["failed", "error"], limit: 20 })).map((i) => ({ id: i.id, error: i.error }))
  };
}

// src/models/model-session.ts
async function runModelSession(o) {
  const service = typeof o.service === "function" ? await o.service() : { client: o.service };
  try {
    await service.check?.();
    const { store, settings } = o;
    const client = service.client;
    const opened = await openModelBatch({
      store,
      client,
      modelId: o.modelId,
      file: o.file,
      name: o.name ?? null,
      settings,
      mode: o.mode,
      baseUrl: settings.service === "sim" ? null : service.baseUrl ?? client.baseUrl
    });
    const { resumed } = opened;
    let batch = opened.batch;
    const notify = settings.notify && notifyOver(settings.notify, batch.settings.notify);
    if (resumed && notify && JSON.stringify(notify) !== JSON.stringify(batch.settings.notify)) {
      await store.updateBatchSettings(batch.id, { ...batch.settings, notify }, batch.policy, batch.baseUrl);
      batch = await store.findBatch(batch.id) ?? batch;
    }
    o.onOpened?.(batch, resumed);
    const emit = (e) => o.onEvent?.(e);
    let downloader = null;
    if (settings.download.enabled) {
      const { Downloader } = await import("./files-EELZJ42A.mjs");
      downloader = new Downloader({ store, client, outDir: settings.download.out ?? "out", concurrency: settings.download.concurrency, onEvent: emit });
    }
    const runner = new ModelBatchRunner({
      store,
      client,
      batch,
      concurrency: settings.concurrency,
      resubmitUnknown: o.resubmitUnknown ?? false,
      onEvent: emit,
      onFiles: () => downloader?.kick(batch)
    });
    const stop = () => {
      runner.stop();
      downloader?.stop();
    };
    if (o.signal?.aborted) stop();
    o.signal?.addEventListener("abort", stop, { once: true });
    let run;
    let files = null;
    const notifier = batch.settings.notify ? (await import("./worker-3XESASMY.mjs")).startWorkerNotifier(store, batch, o.notify) : null;
    try {
      downloader?.kick(batch);
      run = await runner.run();
      if (downloader && !run.interrupted) files = await downloader.drain();
    } finally {
      o.signal?.removeEventListener("abort", stop);
      await notifier?.finish(o.notify?.graceMs);
    }
    if (o.output) await writeModelResults(store, batch, o.output);
    return { batch, resumed, run, files, status: await modelBatchStatus(store, batch) };
  } finally {
    await service.close?.();
  }
}

export {
  normaliseType,
  coerceText,
  checkValue,
  inputsByName,
  classifyField,
  checkInputs,
  modelInputSchema,
  inputFormat,
  streamModelInputs,
  readModelInputs,
  fileOutputs,
  PollPlan,
  defaultModelBatchName,
  openModelBatch,
  ModelBatchRunner,
  modelResultRows,
  writeModelResults,
  modelBatchStatus,
  runModelSession
};
//# sourceMappingURL=chunk-ADLXR26K.mjs.map
