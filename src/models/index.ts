/** Direct model runs: describe, run one, run a batch of inputs (re-exports only). */
export { coerceText, checkValue, normaliseType, type Coerced } from './coerce.js';
export { classifyField, checkInputs, inputsByName, type FieldRole, type FieldProblem, type CheckedInputs } from './validate.js';
export { readModelInputs, streamModelInputs, inputFormat, modelInputSchema, type ModelInputFile, type ModelInputRow, type InputSpec } from './input-file.js';
export { fileOutputs } from './file-outputs.js';
export { PollPlan, type PollPlanOptions } from './poll-plan.js';
export { formatDescription, formatTable } from './describe-table.js';
export { prepareInputs, runOne, type RunOneOptions, type RunOneResult } from './run-one.js';
export { openModelBatch, defaultModelBatchName, type OpenModelBatchOptions, type OpenedModelBatch } from './load-model-batch.js';
export { ModelBatchRunner, type ModelBatchOptions, type ModelBatchResult } from './model-batch-runner.js';
export { modelResultRows, writeModelResults, modelBatchStatus, type ModelResultRow, type ModelBatchStatus } from './results.js';
export type { ModelBatchEvent, RowCounts } from './events.js';
export { runModelSession, type ModelSessionOptions, type ModelSessionResult, type ModelSessionService } from './model-session.js';
