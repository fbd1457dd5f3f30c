import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { ServiceClient } from '../api/index.js';
import { InputError } from '../errors.js';
import { checkUnchanged, defaultBatchName } from '../runner/batch-source.js';
import type { BatchRecord, BatchSettings, BatchStore, ModelStore } from '../store/index.js';
import { readModelInputs } from './input-file.js';

/** What opening a `models` batch needs. */
export interface OpenModelBatchOptions {
  store: BatchStore & ModelStore;
  client: ServiceClient;
  modelId: string;
  /** CSV or JSONL file of inputs, one row per model run. */
  file: string;
  /** Batch name. @default `<model>-<file name without extension>` */
  name?: string | null;
  settings: BatchSettings;
  /** Mode sent with each run; null lets the platform choose. */
  mode: 'sync' | 'async' | null;
  /** Recorded with the batch (null for the simulator). */
  baseUrl: string | null;
}

/** How the batch was found. */
export interface OpenedModelBatch {
  batch: BatchRecord;
  /** True when the batch existed: this run resumes it. */
  resumed: boolean;
}

/** The default batch name for a model and an input file. */
export function defaultModelBatchName(modelId: string, file: string): string {
  return `${modelId}-${defaultBatchName(file)}`;
}

/**
 * Finds the named batch and checks it is this model's and this (unchanged) file's, or
 * creates it: the description is read, the whole file checked against it, and only a
 * file with no problem is recorded, in one transaction. Nothing is sent here.
 * @throws {InputError} listing every bad row as `file:line: input: reason`
 */
export async function openModelBatch(o: OpenModelBatchOptions): Promise<OpenedModelBatch> {
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
    return { batch: (await o.store.findBatch(existing.id)) ?? existing, resumed: true };
  }
  const description = await o.client.describeModel(o.modelId);
  const read = await readModelInputs(o.file, { modelId: o.modelId, inputs: description.inputs });
  if (read.problems.length > 0) throw new InputError(read.problems);
  const id = randomUUID();
  await o.store.loadModelBatch(
    {
      id,
      name,
      kind: 'models',
      sourcePath: resolve(o.file),
      sourceSha256: read.sha256,
      baseUrl: o.baseUrl,
      settings: o.settings,
      policy: null,
    },
    { modelId: o.modelId, mode: o.mode, description: description as Record<string, unknown> },
    read.rows,
  );
  const batch = await o.store.findBatch(id);
  if (!batch) throw new Error('batch vanished after load');
  return { batch, resumed: false };
}
