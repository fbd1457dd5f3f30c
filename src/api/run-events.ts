import { RunSchema, type Run } from './run-schema.js';
import { isRunFinished } from './run-status.js';
import type { SseMessage } from './sse-decoder.js';

/**
 * One event of `GET /runs/{id}/events`. `data` is the parsed JSON, or the raw text when
 * it is not JSON. Event names the spec does not list (e.g. a tool start) pass through.
 */
export interface RunEvent {
  /** Integer event id, or null when the event had none (or not an integer). */
  id: number | null;
  /** `text.delta`, `tool.result`, `run`, or any other name. */
  event: string;
  /** Parsed JSON data, or the raw string. */
  data: unknown;
}

/** A `text.delta` event: text of the answer as it is written. */
export interface TextDeltaEvent extends RunEvent {
  event: 'text.delta';
  data: { text: string; [key: string]: unknown };
}

/** A `tool.result` event: a tool finished. */
export interface ToolResultEvent extends RunEvent {
  event: 'tool.result';
  data: { tool: string; status: string; [key: string]: unknown };
}

/**
 * Turns a framed SSE message into a {@link RunEvent}; with `parse` false its data stays the
 * raw text (a reader that looks only at `run` events skips a JSON.parse per text delta).
 */
export function toRunEvent(message: SseMessage, parse = true): RunEvent {
  return { id: parseEventId(message.id), event: message.event, data: parse ? parseData(message.data) : message.data };
}

/** Parses an SSE id as an integer; null for absent, empty or non-integer ids. */
export function parseEventId(id: string | null | undefined): number | null {
  if (id === null || id === undefined || !/^-?\d+$/.test(id.trim())) return null;
  const n = Number(id.trim());
  return Number.isSafeInteger(n) ? n : null;
}

function parseData(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

/** Narrows to a `text.delta` event whose data has a string `text`. */
export function isTextDeltaEvent(e: RunEvent): e is TextDeltaEvent {
  return e.event === 'text.delta' && isRecord(e.data) && typeof e.data.text === 'string';
}

/** Narrows to a `tool.result` event whose data has string `tool` and `status`. */
export function isToolResultEvent(e: RunEvent): e is ToolResultEvent {
  return (
    e.event === 'tool.result' &&
    isRecord(e.data) &&
    typeof e.data.tool === 'string' &&
    typeof e.data.status === 'string'
  );
}

/**
 * The run carried by a `run` event (the run object exactly as `GET /runs/{id}` returns it),
 * parsed with the run schema; null for other events or a malformed run.
 */
export function runOfEvent(e: RunEvent): Run | null {
  if (e.event !== 'run') return null;
  const parsed = RunSchema.safeParse(e.data);
  return parsed.success ? parsed.data : null;
}

/**
 * Whether this event ends a run's stream: a `run` event whose status is finished
 * (neither `running` nor `cancelling`). Looks only at `data.status`.
 */
export function isFinalRunEvent(e: RunEvent): boolean {
  return (
    e.event === 'run' &&
    isRecord(e.data) &&
    typeof e.data.status === 'string' &&
    isRunFinished({ status: e.data.status })
  );
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
