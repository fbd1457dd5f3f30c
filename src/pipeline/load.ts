import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { InputError, type InputProblem } from '../errors.js';
import { type Origin, describe, friendlyErrors, loadPolicyFile, parsePolicy, problem, readConfigFile, zodProblems } from '../config/index.js';
import type { Policy } from '../policy/index.js';
import { type Pipeline, pipelineFileSchema } from './schema.js';
import { parseService } from './service.js';

/** Key names that would hold a secret; the API key is only ever read from the environment. */
const SECRET_KEY = /^(api[_-]?key|key|token|access[_-]?token|secret|password|authorization|bearer)$/i;
const SECRET_REASON = 'an API key is never read from a file: remove it and set RESQ_API_KEY in the environment';

/**
 * Reads a pipeline file (YAML or JSON): the question set and policy paths are resolved
 * against the pipeline file's folder, an inline or referenced policy is validated, and
 * the question set must exist. Any key that looks like an API key is refused.
 * @throws {InputError} listing every problem as `file:line: key.path: reason`.
 */
export async function loadPipeline(path: string): Promise<Pipeline> {
  const file = resolve(path);
  const dir = dirname(file);
  const doc = await readConfigFile(path);
  const origin: Origin = { file: path, lineOf: doc.lineOf };
  if (doc.value === null || doc.value === undefined) {
    throw new InputError([problem(origin, [], 'empty: expected a mapping with at least `questions`')]);
  }
  if (typeof doc.value !== 'object' || Array.isArray(doc.value)) {
    throw new InputError([problem(origin, [], `must be a mapping, found ${describe(doc.value)}`)]);
  }
  const secrets = findSecretKeys(doc.value, []).map((p) => problem(origin, p, SECRET_REASON));
  const problems: InputProblem[] = [];
  // A secret key is also an unknown key; say only the clearer of the two.
  const fail = () => {
    const secretFields = new Set(secrets.map((p) => p.field));
    const rest = problems.filter((p) => !(p.reason.startsWith('unknown key') && secretFields.has(p.field)));
    return new InputError([...secrets, ...rest]);
  };
  const parsed = pipelineFileSchema.safeParse(doc.value, { error: friendlyErrors });
  if (!parsed.success) {
    problems.push(...zodProblems(parsed.error, origin, pipelineFileSchema));
    throw fail();
  }
  const raw = parsed.data;

  const questions = resolve(dir, raw.questions);
  if (!(await isFile(questions))) problems.push(problem(origin, ['questions'], `no such file: ${questions}`));

  let service: Pipeline['service'] = null;
  if (raw.service !== undefined) {
    const target = parseService(raw.service);
    if ('reason' in target) problems.push(problem(origin, ['service'], target.reason));
    else service = target;
  }

  const policy = await resolvePolicy(raw.policy, dir, origin, problems);
  const score = raw.score === undefined ? undefined : resolve(dir, raw.score);
  if (score !== undefined && !(await isFile(score))) problems.push(problem(origin, ['score'], `no such file: ${score}`));
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
      out: download.out === undefined ? null : resolve(dir, download.out),
    },
    service,
    follow: raw.follow ?? null,
    cancelRoute: raw.cancel_route ?? null,
    ...(score !== undefined ? { score } : {}),
  };
}

/** An inline policy, or the policy file the pipeline names; problems go to `problems`. */
async function resolvePolicy(
  value: unknown,
  dir: string,
  origin: Origin,
  problems: InputProblem[],
): Promise<Policy | null> {
  if (value === undefined || value === null) return null;
  try {
    if (typeof value === 'string') {
      const policyFile = resolve(dir, value);
      if (!(await isFile(policyFile))) {
        problems.push(problem(origin, ['policy'], `no such file: ${policyFile}`));
        return null;
      }
      return await loadPolicyFile(policyFile);
    }
    if (typeof value === 'object' && !Array.isArray(value)) {
      return parsePolicy(value, origin.file, { prefix: ['policy'], lineOf: origin.lineOf });
    }
    problems.push(problem(origin, ['policy'], `must be a policy file path or a mapping, found ${describe(value)}`));
    return null;
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    problems.push(...err.problems);
    return null;
  }
}

/** Key paths, anywhere in the document, whose names say they hold a secret. */
function findSecretKeys(value: unknown, path: PropertyKey[]): PropertyKey[][] {
  if (typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => findSecretKeys(v, [...path, i]));
  return Object.entries(value).flatMap(([k, v]) =>
    SECRET_KEY.test(k) ? [[...path, k]] : findSecretKeys(v, [...path, k]),
  );
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
