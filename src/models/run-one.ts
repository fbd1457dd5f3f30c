import { randomUUID } from 'node:crypto';
import type { ModelDescription, ModelRun, ServiceClient } from '../api/index.js';
import { InputError, type InputProblem } from '../errors.js';
import type { FileRefInput } from '../store/types.js';
import { coerceText } from './coerce.js';
import { fileOutputs } from './file-outputs.js';
import { checkInputs, inputsByName } from './validate.js';

/**
 * Builds one run's inputs from `--inputs JSON` (an object, values checked as they are)
 * and `--input name=value` flags (values coerced to the declared types; they win over
 * `--inputs`), checked against the description. Every problem is reported at once.
 * @throws {InputError} naming the flag, the input and the reason
 */
export function prepareInputs(d: ModelDescription, modelId: string, inputsJson: string | null | undefined, pairs: readonly string[] = []): Record<string, unknown> {
  const declared = inputsByName(d.inputs);
  const problems: InputProblem[] = [];
  const given = new Map<string, unknown>();
  const known = (file: string, name: string): boolean => {
    if (declared.has(name)) return true;
    const list = [...declared.keys()].join(', ') || 'none';
    problems.push({ file, field: name, reason: `not an input of model ${modelId}; its inputs: ${list}` });
    return false;
  };
  if (inputsJson != null && inputsJson.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(inputsJson);
    } catch (e) {
      throw new InputError([{ file: '--inputs', reason: `invalid JSON: ${e instanceof Error ? e.message : String(e)}` }]);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new InputError([{ file: '--inputs', reason: 'expected a JSON object of inputs by name' }]);
    for (const [k, v] of Object.entries(parsed)) if (known('--inputs', k)) given.set(k, v);
  }
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) {
      problems.push({ file: '--input', reason: `expected name=value, got ${JSON.stringify(pair)}` });
      continue;
    }
    const name = pair.slice(0, eq);
    const raw = pair.slice(eq + 1);
    if (!known('--input', name)) continue;
    if (raw === '') {
      given.delete(name);
      continue;
    }
    const r = coerceText(declared.get(name)?.type, raw);
    if (r.ok) given.set(name, r.value);
    else problems.push({ file: '--input', field: name, reason: r.reason });
  }
  const checked = checkInputs(d.inputs, given, 'json');
  for (const p of checked.problems) problems.push({ file: 'inputs', field: p.field, reason: p.reason });
  if (problems.length > 0) throw new InputError(problems);
  return checked.inputs;
}

/** Options of {@link runOne}. */
export interface RunOneOptions {
  client: ServiceClient;
  modelId: string;
  inputs: Record<string, unknown>;
  /** `sync`, `async`, or null to let the platform choose. @default null */
  mode?: 'sync' | 'async' | null;
  /** Stops waiting (the run goes on at the service). */
  signal?: AbortSignal;
  /** Called with the create answer, before any wait: a 202's run id is known from here. */
  onAdmitted?: (run: ModelRun, httpStatus: number) => void;
}

/** A finished single run. */
export interface RunOneResult {
  httpStatus: number;
  run: ModelRun;
  files: FileRefInput[];
}

/**
 * Runs a model once: sends the inputs (with a fresh `Idempotency-Key`), and when the
 * service answers 202, reads the job every few seconds (the client's model poll
 * interval) until it finishes.
 */
export async function runOne(o: RunOneOptions): Promise<RunOneResult> {
  const body = o.mode ? { inputs: o.inputs, mode: o.mode } : { inputs: o.inputs };
  // No signal here: a request already on its way is let finish, so its run id is known.
  const { httpStatus, run } = await o.client.runModel(o.modelId, body, { idempotencyKey: `resq:model:${randomUUID()}` });
  o.onAdmitted?.(run, httpStatus);
  const done = await o.client.waitModelRun(run, o.signal ? { signal: o.signal } : {});
  return { httpStatus, run: done, files: fileOutputs(done.outputs, o.modelId) };
}
