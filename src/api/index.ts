/** The typed client of the Research Agent and Model Service (re-exports only). */
export { ServiceClient } from './client.js';
export type { CallOptions, IdempotentCallOptions, OpenFileOptions, CreateRunBody, RunModelBody, CancelRunOptions } from './client.js';
export { DEFAULT_CANCEL_ROUTE, checkCancelRoute } from './client.js';
export type { ClientOptions } from './options.js';
export type { ClientLogEvent, ClientLogListener } from './log-events.js';
export type { ThrottleEvent, ThrottleListener } from './throttle.js';
export type { FollowRunOptions } from './follow-run.js';
export { STREAM_FAILURES_BEFORE_POLLING } from './follow-run.js';
export type { OpenedFile } from './file-download.js';
export { MAX_REDIRECTS } from './file-download.js';

export {
  ApiError,
  BadRequestError,
  AuthError,
  NotFoundError,
  ConflictError,
  RateLimitError,
  ServerError,
  NetworkError,
  TimeoutError,
  ResponseShapeError,
  CancelUnsupportedError,
  SseEventTooLargeError,
} from './errors.js';
export type { RequestInfo, NetworkPhase } from './errors.js';
export { createApiError } from './error-factory.js';

export { classifyFailure, cannotReachMessage, connectReason } from './failure-class.js';
export type { FailureInput, FailureVerdict, FailureAction, RequestKind, Arrival } from './failure-class.js';
export { DEFAULT_RETRY_OPTIONS, decideRetry, backoffDelay, retryAfterMs, isRetryableStatus } from './retry-policy.js';
export type { RetryOptions, RetryClass, RetryContext, RetryDecision } from './retry-policy.js';

export { isRunFinished, isRunFailure, isRunWaiting, isModelRunFinished } from './run-status.js';

export {
  RunSchema,
  RunOutputSchema,
  RequiredActionSchema,
  ToolResultSchema,
  FileRefSchema,
} from './run-schema.js';
export type { Run, RunOutput, RequiredAction, ToolResult, FileRef } from './run-schema.js';
export { ThreadSchema, ThreadListSchema, ThreadListItemSchema, MessageSchema } from './thread-schema.js';
export type { Thread, ThreadList, ThreadListItem, Message } from './thread-schema.js';
export { ModelDescriptionSchema, ModelFieldSchema, ModelRunSchema } from './model-schema.js';
export type { ModelDescription, ModelField, ModelRun } from './model-schema.js';
export {
  AnswerSchema,
  ConfirmScopeAnswerSchema,
  AskChoiceAnswerSchema,
  QualityImageAnswerSchema,
  isKnownTool,
} from './answer-schema.js';
export type {
  Answer,
  AnswerFor,
  AnswerByTool,
  KnownTool,
  ConfirmScopeAnswer,
  AskChoiceAnswer,
  QualityImageAnswer,
} from './answer-schema.js';

export { isTextDeltaEvent, isToolResultEvent, isFinalRunEvent, runOfEvent, toRunEvent, parseEventId } from './run-events.js';
export type { RunEvent, TextDeltaEvent, ToolResultEvent } from './run-events.js';
export { SseDecoder } from './sse-decoder.js';
export type { SseMessage } from './sse-decoder.js';
