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
  created_at: z.string().nullish(),
});
/** A research run. */
export type Run = z.infer<typeof RunSchema>;
