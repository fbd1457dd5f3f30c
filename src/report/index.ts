// A report to share: one self-contained HTML file of a batch (gather → render → write).
export { gatherReport, rowsWithVerdicts, type PassRate, type ReportStore, type ReportSummary } from './gather.js';
export { writeReport, REPORT_MAX_BYTES, type ReportOptions, type ReportWritten } from './write-report.js';
export { REPORT_CSP } from './page-style.js';
