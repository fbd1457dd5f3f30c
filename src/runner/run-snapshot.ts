import { isSaneServiceTime } from '../api/run-schema.js';
import { isRunFinished } from '../api/run-status.js';
import type { FileRefInput, RunError, RunSnapshot } from '../store/index.js';

/** The parts of a service run the runner reads (the client's Run type satisfies it). */
export interface RunLike {
  id: string;
  status: string;
  thread_id?: string | null | undefined;
  created_at?: unknown;
  finished_at?: unknown;
  completed_at?: unknown;
  updated_at?: unknown;
  required_action?: { tool: string; input?: unknown } | null | undefined;
  output?: { text?: unknown; tool_results?: unknown } | null | undefined;
  /** Why a failed run failed: `{code, message}` (a string is taken as the message). */
  error?: unknown;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every file reference in a run's tool results, with the tool that made it. */
export function fileRefs(run: RunLike): FileRefInput[] {
  const results = run.output?.tool_results;
  if (!Array.isArray(results)) return [];
  const out: FileRefInput[] = [];
  for (const r of results) {
    if (!isObject(r) || !Array.isArray(r.files)) continue;
    for (const f of r.files) {
      if (!isObject(f) || typeof f.id !== 'string' || typeof f.url !== 'string') continue;
      out.push({
        id: f.id,
        url: f.url,
        role: typeof f.role === 'string' ? f.role : null,
        name: typeof f.name === 'string' ? f.name : null,
        tool: typeof r.tool === 'string' ? r.tool : null,
      });
    }
  }
  return out;
}

/**
 * The service's reason for a failed run, kept verbatim: `{code, message}`, or a bare string
 * as the message; any other shape is kept as its JSON text. Null when the run carries none.
 */
export function runError(run: RunLike): RunError | null {
  const e = run.error;
  if (e === undefined || e === null || e === '') return null;
  if (typeof e === 'string') return { code: null, message: e };
  if (isObject(e)) {
    const code = typeof e.code === 'string' && e.code !== '' ? e.code : null;
    if (typeof e.message === 'string' && e.message !== '') return { code, message: e.message };
    // A code alone still says why; the whole object keeps whatever else it held.
    return { code, message: code ?? JSON.stringify(e) };
  }
  return { code: null, message: JSON.stringify(e) };
}

/** The longest run resq takes the service's times for: longer, one of them is wrong. */
const LONGEST_RUN_MS = 366 * 86_400_000;

/**
 * Seconds an ended run took by the service's own clock: from `created_at` to `finished_at`
 * (or `completed_at`, or `updated_at`, its last change). Null when a time is missing or not
 * sane (isSaneServiceTime), or the end comes before the start or absurdly long after it.
 */
export function serviceSeconds(run: RunLike): number | null {
  const start = run.created_at;
  const end = [run.finished_at, run.completed_at, run.updated_at].find(isSaneServiceTime);
  if (!isSaneServiceTime(start) || end === undefined) return null;
  const ms = Date.parse(end) - Date.parse(start);
  return ms >= 0 && ms <= LONGEST_RUN_MS ? ms / 1000 : null;
}

/**
 * Reduces a service run to what the store keeps. `unwatched`: it was found ended on the
 * first look of a resq that did not start it (it ended while none watched).
 */
export function toSnapshot(run: RunLike, unwatched = false): RunSnapshot {
  const ra = run.required_action;
  const output = run.output;
  return {
    id: run.id,
    status: run.status,
    threadId: run.thread_id ?? null,
    createdAt: typeof run.created_at === 'string' ? run.created_at : null,
    requiredAction: ra ? { tool: ra.tool, input: isObject(ra.input) ? ra.input : {} } : null,
    output: output
      ? {
          text: typeof output.text === 'string' ? output.text : '',
          tool_results: Array.isArray(output.tool_results) ? output.tool_results : [],
        }
      : null,
    files: fileRefs(run),
    error: runError(run),
    serviceSeconds: isRunFinished(run) ? serviceSeconds(run) : null,
    unwatched,
  };
}
