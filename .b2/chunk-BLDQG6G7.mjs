import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  checkInputs,
  coerceText,
  fileOutputs,
  inputsByName
} from "./chunk-ADLXR26K.mjs";
import {
  InputError
} from "./chunk-4EMWZ36I.mjs";

// src/models/describe-table.ts
var MODEL_KEYS = /* @__PURE__ */ new Set(["id", "name", "description", "page_url", "inputs", "outputs"]);
var INPUT_KEYS = /* @__PURE__ */ new Set(["name", "type", "required", "default", "description"]);
var OUTPUT_KEYS = /* @__PURE__ */ new Set(["name", "type", "required", "description"]);
function text(v) {
  if (v === void 0) return "";
  if (typeof v === "string") return v;
  return JSON.stringify(v);
}
function extras(o, known) {
  return Object.entries(o).filter(([k, v]) => !known.has(k) && v !== void 0).map(([k, v]) => `${k}=${text(v)}`).join(" ");
}
function formatTable(header, rows) {
  const used = header.map((_, c) => c < 2 || rows.some((r) => (r[c] ?? "") !== ""));
  const cols = header.map((_, c) => c).filter((c) => used[c]);
  const width = cols.map((c) => Math.max(header[c].length, ...rows.map((r) => (r[c] ?? "").length)));
  const line = (cells) => cols.map((c, i) => i === cols.length - 1 ? cells[c] ?? "" : (cells[c] ?? "").padEnd(width[i])).join("  ").trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}
function inputRow(f) {
  const hasDefault = Object.hasOwn(f, "default") && f.default !== void 0;
  return [f.name, f.type ?? "", f.required ? "yes" : "no", hasDefault ? text(f.default) : "", f.description ?? "", extras(f, INPUT_KEYS)];
}
function outputRow(f) {
  return [f.name, f.type ?? "", f.description ?? "", extras(f, OUTPUT_KEYS)];
}
function formatDescription(d, requestedId) {
  const lines = [];
  const title = d.name && d.name !== (d.id ?? requestedId) ? `${d.id ?? requestedId} \u2014 ${d.name}` : d.id ?? requestedId;
  lines.push(`model ${title}`);
  const about = d.description;
  if (typeof about === "string" && about) lines.push(about);
  if (d.page_url) lines.push(`page: ${d.page_url}`);
  const other = Object.entries(d).filter(([k, v]) => !MODEL_KEYS.has(k) && v !== void 0);
  for (const [k, v] of other) lines.push(`${k}: ${text(v)}`);
  lines.push("", "inputs:");
  lines.push(
    d.inputs.length ? indent(formatTable(["name", "type", "required", "default", "description", "other"], d.inputs.map(inputRow))) : "  (none declared)"
  );
  lines.push("", "outputs:");
  lines.push(
    d.outputs.length ? indent(formatTable(["name", "type", "description", "other"], d.outputs.map(outputRow))) : "  (none declared)"
  );
  return lines.join("\n");
}
function indent(s) {
  return s.split("\n").map((l) => `  ${l}`).join("\n");
}

// src/models/run-one.ts
import { randomUUID } from "node:crypto";
function prepareInputs(d, modelId, inputsJson, pairs = []) {
  const declared = inputsByName(d.inputs);
  const problems = [];
  const given = /* @__PURE__ */ new Map();
  const known = (file, name) => {
    if (declared.has(name)) return true;
    const list = [...declared.keys()].join(", ") || "none";
    problems.push({ file, field: name, reason: `not an input of model ${modelId}; its inputs: ${list}` });
    return false;
  };
  if (inputsJson != null && inputsJson.trim() !== "") {
    let parsed;
    try {
      parsed = JSON.parse(inputsJson);
    } catch (e) {
      throw new InputError([{ file: "--inputs", reason: `invalid JSON: ${e instanceof Error ? e.message : String(e)}` }]);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      throw new InputError([{ file: "--inputs", reason: "expected a JSON object of inputs by name" }]);
    for (const [k, v] of Object.entries(parsed)) if (known("--inputs", k)) given.set(k, v);
  }
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) {
      problems.push({ file: "--input", reason: `expected name=value, got ${JSON.stringify(pair)}` });
      continue;
    }
    const name = pair.slice(0, eq);
    const raw = pair.slice(eq + 1);
    if (!known("--input", name)) continue;
    if (raw === "") {
      given.delete(name);
      continue;
    }
    const r = coerceText(declared.get(name)?.type, raw);
    if (r.ok) given.set(name, r.value);
    else problems.push({ file: "--input", field: name, reason: r.reason });
  }
  const checked = checkInputs(d.inputs, given, "json");
  for (const p of checked.problems) problems.push({ file: "inputs", field: p.field, reason: p.reason });
  if (problems.length > 0) throw new InputError(problems);
  return checked.inputs;
}
async function runOne(o) {
  const body = o.mode ? { inputs: o.inputs, mode: o.mode } : { inputs: o.inputs };
  const { httpStatus, run } = await o.client.runModel(o.modelId, body, { idempotencyKey: `resq:model:${randomUUID()}` });
  o.onAdmitted?.(run, httpStatus);
  const done = await o.client.waitModelRun(run, o.signal ? { signal: o.signal } : {});
  return { httpStatus, run: done, files: fileOutputs(done.outputs, o.modelId) };
}

export {
  formatTable,
  formatDescription,
  prepareInputs,
  runOne
};
//# sourceMappingURL=chunk-BLDQG6G7.mjs.map
