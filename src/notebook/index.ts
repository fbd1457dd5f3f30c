/**
 * Notebook helpers (re-exports only): read a resq database in a tslab notebook and render
 * tables, items, files and charts as MIME bundles. Nothing here imports tslab; show a bundle
 * with `showWith(tslab.display)`.
 */
export { openResults, Results, type BatchInfo, type BatchRef } from './results.js';
export { formatBytes } from '../format-bytes.js';
export { escapeHtml, markdown, MIME_PREFERENCE, note, pickMime, showWith, type DisplayLike, type Mime, type MimeBundle } from './bundle.js';
export { cellText, columnsOf, flatten, table, type TableOptions } from './table.js';
export { listItems, statesFor, statusOf, type ItemFilter, type ItemRow } from './items.js';
export { exampleWord, metaFields, type MetaField } from './filter-examples.js';
export { itemDetail, renderItem, type ChainRun, type ItemDetail } from './item-view.js';
export { fileKind, fileLabel, renderFile, whyNotOnDisk, type FileKind, type FileRenderOptions, type FileView } from './file-view.js';
export { batchSummary, summaryTable, type BatchSummary } from './summary.js';
export { decisionRows, decisionsTable, statusTable, type DecisionRow } from './status-view.js';
export { durationChart, mediaTypeChart, mediaTypeOf, planCostChart, planCosts, runDurations, statusChart, STATUS_COLORS, type PlanCost, type RunDuration } from './charts.js';
export { barChart, formatNumber, histogram, niceStep, PALETTE, type Bar, type BarChartOptions, type BarSegment, type HistogramOptions } from '../charts/svg-chart.js';
export { modelChart, modelRows, type ModelChartOptions, type ModelRow } from './model-rows.js';
export { scoresChart, scoresTable, VERDICT_COLORS } from './scores-view.js';
export type { ScoreRate } from '../read/status-schema.js';
export { NotebookError } from './errors.js';
export type { MetaValue } from '../store/shapes.js';
