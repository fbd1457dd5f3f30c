/**
 * resq as a library: the typed client, the batch runner, the store and its readers, file
 * downloads, direct model runs and the notebook helpers. Re-exports only. The simulator is
 * the subpath `resq-cli/sim` (src/sim/index.ts), so the library does not load it.
 */
export * from './errors.js';
export * from './api/index.js';
export * from './store/index.js';
export * from './runner/index.js';
export * from './read/index.js';
export { chooseService, overrideNote, type ServiceChoiceResult, type ServiceSources, type StoredService } from './service-choice.js';
export {
  Downloader,
  pullFiles,
  filesStatus,
  verifyFiles,
  type DownloaderOptions,
  type DownloadEvent,
  type DownloadSummary,
  type DownloadProblem,
  type FileRef as DownloadFileRef,
  type PullReport,
  type FilesStatus,
  type VerifyReport,
} from './files/index.js';
export * from './models/index.js';
export { decide, type Policy, type Decision, type PendingAction } from './policy/index.js';
export { checkPolicy, proposeRule, verdictOf, type PastPause, type PauseDifference, type PolicyCheck, type ProposedRule, type ToolCheck, type Verdict } from './policy/index.js';
export { readPolicyCheck, readRuleView, type RuleView } from './review/policy-check.js';
export { forecast, quantile, summarize, type Forecast, type ForecastInput, type Spread, type Summary } from './forecast/estimate.js';
export { readForecast, type ForecastReport, type ForecastRequest } from './forecast/reader.js';
export { parsePolicy, loadPolicyFile } from './config/index.js';
export { loadPipeline, type Pipeline } from './pipeline/index.js';
export { readQuestionSet, validateQuestionSet, hashFile as hashQuestionSet, type QuestionRow, type RowResult } from './tables/index.js';
export * as notebook from './notebook/index.js';
export { verifySignature, signatureHeader, SIGNATURE_HEADER, Notifier, EVENT_TYPES, type EventDoc, type VerifyOptions } from './notify/index.js';
