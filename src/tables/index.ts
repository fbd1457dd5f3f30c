export { type QuestionFormat, formatFromName, sniffFormat } from './format.js';
export {
  type HashTap,
  type ReadOptions,
  type ValidateOptions,
  type ValidationSummary,
  hashFile,
  readQuestionSet,
  validateQuestionSet,
} from './question-set.js';
export { type QuestionRow, type RowResult, duplicateIdProblem } from './row.js';
export { type BatchRead, type BatchReadOptions, type RowBatch, OFF_THREAD_BYTES, isLarge, readRowBatches } from './row-batches.js';
export { type KeyedRow, type ReadResult, type RowSchema, type CsvRowReader } from './row-schema.js';
export { type TableReadOptions, readTable } from './table-reader.js';
export { escapeControls } from '../text/escape-text.js';
export { MAX_JSON_DEPTH, type ParsedJson, nestingExceeds, parseJsonExactly, parseStoredJson, isRawNumber } from '../text/json-text.js';
