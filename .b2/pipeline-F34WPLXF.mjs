import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import "./chunk-2KEABKLD.mjs";
import "./chunk-RXPVMVT6.mjs";
import {
  describe,
  friendlyErrors,
  loadPolicyFile,
  parsePolicy,
  problem,
  readConfigFile,
  zodProblems
} from "./chunk-XCINQ3MG.mjs";
import {
  policySchema
} from "./chunk-O6UYGKUI.mjs";
import "./chunk-SYF23C3W.mjs";
import {
  checkBaseUrl
} from "./chunk-2RMSLZTD.mjs";
import {
  external_exports
} from "./chunk-UUEOY5IK.mjs";
import "./chunk-KVDTBB5J.mjs";
import {
  InputError
} from "./chunk-4EMWZ36I.mjs";
import "./chunk-O4EQ2A5A.mjs";
import "./chunk-5OSXGZ5J.mjs";

// src/pipeline/load.ts
import { stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";

// src/pipeline/schema.ts
var downloadFileSchema = external_exports.preprocess(
  (v) => typeof v === "boolean" ? { enabled: v } : v,
  external_exports.strictObject({
    /** @default true */
    enabled: external_exports.boolean().default(true),
    /** Files downloaded at once. @default DEFAULT_DOWNLOAD_CONCURRENCY (store/types.ts), filled in by whoever runs the batch */
    concurrency: external_exports.int().min(1).max(1e3).optional(),
    /** Download folder, relative to the pipeline file. */
    out: external_exports.string().min(1).optional()
  })
);
var pipelineFileSchema = external_exports.strictObject({
  /** Batch name. */
  name: external_exports.string().min(1).optional(),
  /** Question set (CSV or JSONL), relative to the pipeline file. */
  questions: external_exports.string().min(1),
  /** Runs in flight at once. */
  concurrency: external_exports.int().min(1).max(1e4).optional(),
  /** A policy file path (relative to the pipeline file) or an inline policy; checked apart. */
  policy: external_exports.unknown().optional(),
  download: downloadFileSchema.optional(),
  /** `sim` or a base URL ending in /api/v1; checked apart. */
  service: external_exports.string().min(1).optional(),
  /** How runs are followed. */
  follow: external_exports.enum(["sse", "poll"]).optional(),
  /** Where `resq cancel` cancels a run, `{id}` standing for its id (the spec names no route). */
  cancel_route: external_exports.string().min(1).optional(),
  /** A scorers file (relative to the pipeline file): every worker judges each item as it completes. */
  score: external_exports.string().min(1).optional()
});
var pipelineSchema = external_exports.strictObject({
  /** Absolute path of the pipeline file. */
  file: external_exports.string(),
  /** Batch name, when the file gives one. */
  name: external_exports.string().nullable(),
  /** Absolute path of the question set. */
  questions: external_exports.string(),
  /** Runs in flight at once, when the file gives it. */
  concurrency: external_exports.int().positive().nullable(),
  /** The policy, inline or from its file; null when the file gives none. */
  policy: policySchema.nullable(),
  download: external_exports.strictObject({
    enabled: external_exports.boolean(),
    /** Files downloaded at once, when the file gives it. */
    concurrency: external_exports.int().positive().nullable(),
    /** Absolute download folder, when the file gives one. */
    out: external_exports.string().nullable()
  }),
  /** Where runs go, when the file says. The API key is never part of it. */
  service: external_exports.discriminatedUnion("kind", [
    external_exports.strictObject({ kind: external_exports.literal("sim") }),
    external_exports.strictObject({ kind: external_exports.literal("url"), baseUrl: external_exports.string() })
  ]).nullable(),
  follow: external_exports.enum(["sse", "poll"]).nullable(),
  /** The cancel route template, when the file gives one. */
  cancelRoute: external_exports.string().nullable(),
  /** Absolute path of the scorers file, when the file gives one. */
  score: external_exports.string().optional()
});

// src/pipeline/service.ts
function parseService(value) {
  if (value.trim() === "sim") return { kind: "sim" };
  const r = checkBaseUrl(value);
  if (r.ok) return { kind: "url", baseUrl: r.baseUrl };
  return { reason: r.reason === "is not a valid URL" ? 'must be "sim" or a base URL ending in /api/v1' : `the base URL ${r.reason}` };
}

// src/pipeline/load.ts
var SECRET_KEY = /^(api[_-]?key|key|token|access[_-]?token|secret|password|authorization|bearer)$/i;
var SECRET_REASON = "an API key is never read from a file: remove it and set RESQ_API_KEY in the environment";
async function loadPipeline(path) {
  const file = resolve(path);
  const dir = dirname(file);
  const doc = await readConfigFile(path);
  const origin = { file: path, lineOf: doc.lineOf };
  if (doc.value === null || doc.value === void 0) {
    throw new InputError([problem(origin, [], "empty: expected a mapping with at least `questions`")]);
  }
  if (typeof doc.value !== "object" || Array.isArray(doc.value)) {
    throw new InputError([problem(origin, [], `must be a mapping, found ${describe(doc.value)}`)]);
  }
  const secrets = findSecretKeys(doc.value, []).map((p) => problem(origin, p, SECRET_REASON));
  const problems = [];
  const fail = () => {
    const secretFields = new Set(secrets.map((p) => p.field));
    const rest = problems.filter((p) => !(p.reason.startsWith("unknown key") && secretFields.has(p.field)));
    return new InputError([...secrets, ...rest]);
  };
  const parsed = pipelineFileSchema.safeParse(doc.value, { error: friendlyErrors });
  if (!parsed.success) {
    problems.push(...zodProblems(parsed.error, origin, pipelineFileSchema));
    throw fail();
  }
  const raw = parsed.data;
  const questions = resolve(dir, raw.questions);
  if (!await isFile(questions)) problems.push(problem(origin, ["questions"], `no such file: ${questions}`));
  let service = null;
  if (raw.service !== void 0) {
    const target = parseService(raw.service);
    if ("reason" in target) problems.push(problem(origin, ["service"], target.reason));
    else service = target;
  }
  const policy = await resolvePolicy(raw.policy, dir, origin, problems);
  const score = raw.score === void 0 ? void 0 : resolve(dir, raw.score);
  if (score !== void 0 && !await isFile(score)) problems.push(problem(origin, ["score"], `no such file: ${score}`));
  if (problems.length > 0 || secrets.length > 0) throw fail();
  const download = raw.download ?? { enabled: true };
  return {
    file,
    name: raw.name ?? null,
    questions,
    concurrency: raw.concurrency ?? null,
    policy,
    download: {
      enabled: download.enabled,
      concurrency: download.concurrency ?? null,
      out: download.out === void 0 ? null : resolve(dir, download.out)
    },
    service,
    follow: raw.follow ?? null,
    cancelRoute: raw.cancel_route ?? null,
    ...score !== void 0 ? { score } : {}
  };
}
async function resolvePolicy(value, dir, origin, problems) {
  if (value === void 0 || value === null) return null;
  try {
    if (typeof value === "string") {
      const policyFile = resolve(dir, value);
      if (!await isFile(policyFile)) {
        problems.push(problem(origin, ["policy"], `no such file: ${policyFile}`));
        return null;
      }
      return await loadPolicyFile(policyFile);
    }
    if (typeof value === "object" && !Array.isArray(value)) {
      return parsePolicy(value, origin.file, { prefix: ["policy"], lineOf: origin.lineOf });
    }
    problems.push(problem(origin, ["policy"], `must be a policy file path or a mapping, found ${describe(value)}`));
    return null;
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    problems.push(...err.problems);
    return null;
  }
}
function findSecretKeys(value, path) {
  if (typeof value !== "object" || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => findSecretKeys(v, [...path, i]));
  return Object.entries(value).flatMap(
    ([k, v]) => SECRET_KEY.test(k) ? [[...path, k]] : findSecretKeys(v, [...path, k])
  );
}
async function isFile(path) {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
export {
  loadPipeline,
  parseService,
  pipelineFileSchema,
  pipelineSchema
};
//# sourceMappingURL=pipeline-F34WPLXF.mjs.map
