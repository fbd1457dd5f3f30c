// The read model: a batch's status and an item's view, computed once over the store's read
// roles; `resq status`/`show`, the page's JSON API, the notebook helpers and /metrics render them.
export { readBatchStatus, batchCard, workersOf, unfinishedOf, countIn, nextStepOf, readNextStep, resumeCommand, STALE_MS, FAILED_LISTED, type StatusOptions } from './batch-status.js';
export { readItemView } from './item-view.js';
export { holdsNoBatch } from './batch-list.js';
export { waitReason, waitGroups, forPersonCount, forPersonBehindThreads, readWaitGroups, itemWaitOf, readItemWait, WAITING_NAMED, type WaitContext } from './waits.js';
export { waitContextOf, readWaitContext } from './batch-status.js';
export * from './wait-schema.js';
export { ratePerSecond, etaSeconds, coveredMs, RATE_WINDOW } from './rate.js';
export { selectHeld, checkHeldFilter, parseWhere, heldMatches, type HeldFilter, type HeldSelection, type SelectedHeld } from './held-selection.js';
export { decisionWords, deciderOf, deciderLine } from './decider.js';
export * from './status-schema.js';
export * from './item-schema.js';
export { budgetOf, heldWaitSeconds, histogramOf, readHeldWaits, HELD_WAIT_BUCKETS, type Histogram } from './spend.js';
export { readScoreRates, scorersShown, scoreRateOf, rateWords } from './score-rates.js';
