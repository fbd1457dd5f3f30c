// Child entry: the model-input side of `resq models batch` — stream a file of model inputs
// through the one reader with the model-input schema (coercion, checks, duplicate ids),
// count rows and problems, keep none, print the counts.
//   npx tsx test/bench/lib/model-input-read.ts FILE
import { createHash } from 'node:crypto';
import type { ModelField } from '../../../src/api/index.js';
import { streamModelInputs } from '../../../src/models/input-file.js';

/** The inputs of the generated files (see writeLargeModelInputs). */
export const BENCH_MODEL_INPUTS: ModelField[] = [
  { name: 'smiles', type: 'string', required: true },
  { name: 'n', type: 'integer', required: false },
  { name: 'scale', type: 'number', required: false },
] as ModelField[];

const file = process.argv[2];
if (file) {
  let rows = 0;
  let problems = 0;
  const tap = { hash: createHash('sha256'), complete: false };
  for await (const r of streamModelInputs(file, { modelId: 'bench', inputs: BENCH_MODEL_INPUTS }, { tap })) {
    if (r.ok) rows++;
    else problems++;
  }
  process.stdout.write(`${JSON.stringify({ type: 'model-inputs', rows, problems, sha256: tap.complete ? tap.hash.digest('hex') : null })}\n`);
}
