import { z } from 'zod';
import { cutDepth } from './json-depth.js';

/** An array that may be absent or null on the wire; always an array after parsing. */
export function listOf<T extends z.ZodType>(item: T) {
  return z
    .array(item)
    .nullish()
    .transform((v) => v ?? []);
}

/** A JSON object that may be absent or null on the wire; always an object after parsing. */
export const objectOrEmpty = z
  .record(z.string(), z.unknown())
  .nullish()
  .transform((v) => v ?? {});

/** A file a tool made: fetch it with `ServiceClient.openFile(ref.url)`. */
export const FileRefSchema = z.looseObject({
  /** File identifier. */
  id: z.string(),
  /** The tool output field that refers to the file. */
  role: z.string().nullish().transform((v) => v ?? ''),
  /** `{base_url}/files/<id>`. */
  url: z.string(),
  /** File name; absent means "use the id". */
  name: z.string().nullish(),
});
/** A file reference (element of `files[]`). */
export type FileRef = z.infer<typeof FileRefSchema>;

/** The stable envelope every tool result has; `output` is the tool's own, changing payload. */
export const ToolResultSchema = z.looseObject({
  /** Always `tool_result` today. */
  type: z.string().nullish(),
  /** Identifier of the tool call. */
  call_id: z.string().nullish(),
  /** Name of the tool. */
  tool: z.string(),
  /** Outcome; `succeeded` is one value, others are kept verbatim. */
  status: z.string(),
  /** What the tool was asked. */
  input: objectOrEmpty,
  /** The tool's own payload: read it only for a tool you know. */
  output: z.unknown().optional(),
  /** Files the tool made. */
  files: listOf(FileRefSchema),
});
/** A tool result envelope. */
export type ToolResult = z.infer<typeof ToolResultSchema>;

/** What a paused run waits for. */
export const RequiredActionSchema = z.looseObject({
  /** Name of the waiting tool (`confirm_scope`, `ask_choice`, `request_quality_image`, or another). */
  tool: z.string(),
  /** What the tool asked; nested no deeper than INPUT_DEPTH (deeper values cut, marked). */
  input: objectOrEmpty.transform((v) => cutDepth(v) as Record<string, unknown>),
});
/** The `required_action` of a run whose status is `requires_action`. */
export type RequiredAction = z.infer<typeof RequiredActionSchema>;

/** What a run has written so far. */
export const RunOutputSchema = z.looseObject({
  /** The answer as Markdown. */
  text: z.string().nullish(),
  /** One entry per tool used. */
  tool_results: listOf(ToolResultSchema),
});
/** The `output` of a run. */
export type RunOutput = z.infer<typeof RunOutputSchema>;

/** Earliest and latest service time taken as real: anything outside is a clock or a field gone wrong. */
const SANE_FROM = Date.UTC(2000, 0, 1);
const SANE_TO = Date.UTC(2200, 0, 1);
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Whether a service timestamp is an ISO 8601 date-time with a zone, between 2000 and 2200. */
export function isSaneServiceTime(v: unknown): v is string {
  if (typeof v !== 'string' || v.length > 40 || !ISO_TIME.test(v)) return false;
  const ms = Date.parse(v);
  return Number.isFinite(ms) && ms >= SANE_FROM && ms < SANE_TO;
}

/**
 * A time the service measured (ISO 8601): optional, and one that is not a parseable
 * date-time with a zone between 2000 and 2200 is read as absent (resq then measures itself).
 */
export const ServiceTimeSchema = z
  .unknown()
  .optional()
  .transform((v) => (isSaneServiceTime(v) ? v : null));

/** A research run. Unknown fields and unknown status strings are kept. */
export const RunSchema = z.looseObject({
  id: z.string(),
  /** `running`, `cancelling`, `requires_action`, `completed`, `failed`, … (any string). */
  status: z.string(),
  /** The thread the run belongs to. */
  thread_id: z.string(),
  output: RunOutputSchema.nullish(),
  /** Present when status is `requires_action`. */
  required_action: RequiredActionSchema.nullish(),
  /** Creation time (ISO 8601) when the service gives one; not in the spec's field list. */
  created_at: ServiceTimeSchema,
  /** When the run ended (paused or finished), as the service measured it; not in the spec's field list. */
  finished_at: ServiceTimeSchema,
  /** The same under the name some services use. */
  completed_at: ServiceTimeSchema,
  /** The run's last change; its end once it is no longer running. */
  updated_at: ServiceTimeSchema,
});
/** A research run. */
export type Run = z.infer<typeof RunSchema>;
