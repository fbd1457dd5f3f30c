import { chainSeconds } from '../store/common/run-times.js';
// The export projection: a batch's items as export rows, read through the store port only, so
// the engine's export, the notebook helpers and a script all read one shape.
import { decisionNote } from './decision-text.js';
import { recordedCost, untrustedCost } from '../policy/cost.js';
import type { ItemAggregate, ReadStore, ScoreStore } from '../store/port.js';
import { scorersShown } from './score-rates.js';
import { alongsideVerdicts, type ShownVerdict, verdictsByName } from './item-verdicts.js';
import type { BatchRecord, FileRecord, FileStatus, ItemState } from '../store/types.js';

/** Item status as exported: `submitting` is reported as `running` (the run may exist). */
export type ExportStatus = Exclude<ItemState, 'submitting'>;

/** One exported row: exactly the fields of DESIGN.md's export row. */
export interface ExportRow {
  id: string;
  question: string;
  status: ExportStatus;
  run_status: string | null;
  thread_id: string | null;
  run_ids: string[];
  text: string | null;
  decisions: {
    tool: string;
    input: Record<string, unknown>;
    answer: Record<string, unknown>;
    by: 'policy' | 'person';
    /** The name of the person who answered, when one was given. */
    person?: string;
    /** Why it was decided so (the policy's rule, or a person's note), or null. */
    reason: string | null;
    /** The note given with it (a person's, or a policy rule's), or null. */
    note: string | null;
    /** Cost the decision approved (0 for a decline). */
    cost: number;
  }[];
  files: { id: string; role: string | null; name: string | null; path: string | null; bytes: number | null; sha256: string | null; status: FileStatus }[];
  /** Why the item failed or errored: the service's message verbatim, or resq's for a client-side fault. */
  error: string | null;
  /** The service's error code (`agent_error`, …), or null when none was given. */
  error_code: string | null;
  /** Cost approved for the item's plans (its decisions' costs added up). */
  cost: number;
  /** Seconds its runs ran (each run from admission to its end, added up; time held or stopped not counted), or null before any ended. */
  duration_seconds: number | null;
  /** When its first run was admitted (ISO 8601), or null if none was. */
  created_at: string | null;
  /** When the item reached its final state (ISO 8601), or null. */
  finished_at: string | null;
  meta: Record<string, unknown>;
  /** Each scorer's verdict by name (the batch's scorers, or every scorer with verdicts): pass, score, reason, null when not judged; `{}` without scorers. */
  scores: Record<string, ShownVerdict>;
}

/** A file as the export rows show it. */
export type ExportFile = ExportRow['files'][number];

/** Reduces a stored file to its export fields. */
export function exportFile(f: Pick<FileRecord, 'id' | 'role' | 'name' | 'path' | 'bytes' | 'sha256' | 'status'>): ExportFile {
  return { id: f.id, role: f.role, name: f.name, path: f.path, bytes: f.bytes, sha256: f.sha256, status: f.status };
}

/** The status an export reports for a state: `submitting` shows as `running` (the run may exist). */
export function exportStatus(s: ItemState): ExportStatus {
  return s === 'submitting' ? 'running' : s;
}

export { FAILED_STATES } from '../store/item-states.js';

/** Seconds the runs ran, to the millisecond; null when none has ended or one ended unwatched without the service's times. */
export const runSeconds = (times: ItemAggregate['runTimes']): number | null => chainSeconds(times);

/** `untrusted_cost` (the plan's cost as sent, marked) when the service sent one resq does not trust. */
function untrusted(input: Record<string, unknown>): { untrusted_cost?: string } {
  const shown = untrustedCost(input);
  return shown === null ? {} : { untrusted_cost: shown };
}

/** One item's export row from its aggregate. */
export function exportRow(a: ItemAggregate, scores: Record<string, ShownVerdict> = {}): ExportRow {
  const it = a.item;
  return {
    id: it.id,
    question: it.question,
    status: exportStatus(it.state),
    run_status: it.runStatus,
    thread_id: it.threadId,
    run_ids: a.runIds,
    text: it.text,
    decisions: a.decisions.map((d) => ({ tool: d.tool, input: d.input, answer: d.answer, by: d.by, ...(d.by === 'person' && d.person ? { person: d.person } : {}), reason: d.reason ?? null, note: decisionNote(d), cost: recordedCost(Number(d.cost ?? 0)), ...untrusted(d.input) })),
    files: a.files.map(exportFile),
    error: it.error,
    error_code: it.errorCode,
    cost: a.decisions.reduce((sum, d) => sum + recordedCost(Number(d.cost ?? 0)), 0),
    duration_seconds: runSeconds(a.runTimes),
    created_at: a.runTimes[0]?.createdAt ?? null,
    finished_at: it.finishedAt,
    meta: it.meta,
    scores,
  };
}

/** What to export. */
export interface ExportSelection {
  /** Only items in these states (`FAILED_STATES` for `--failed`). @default every item */
  states?: readonly ItemState[];
  /** Items read per store query. @default 500 */
  pageSize?: number;
}

/** What export rows read: the items' aggregates and their verdicts. */
export type ExportStore = ReadStore & Pick<ScoreStore, 'verdictsPage' | 'scorersJudged'>;

/**
 * Streams a batch's export rows in file order, a page of aggregates (and of their verdicts) at
 * a time: never the whole batch in memory.
 */
export async function* exportRows(store: ExportStore, batch: BatchRecord, sel: ExportSelection | number = {}): AsyncGenerator<ExportRow> {
  const o: ExportSelection = typeof sel === 'number' ? { pageSize: sel } : sel;
  const states = o.states;
  const pageSize = o.pageSize ?? 500;
  const refs = await scorersShown(store, batch);
  const readPage = (after: number, limit: number) => store.aggregates(batch.id, after, limit, states);
  const rows = alongsideVerdicts(refs.length > 0 ? store : null, batch.id, readPage, (a) => a.item.seq, pageSize);
  for await (const { row, verdicts } of rows) yield exportRow(row, refs.length > 0 ? verdictsByName(refs, verdicts) : {});
}
