import { z } from 'zod';
import { listOf, ToolResultSchema } from './run-schema.js';

/** One entry of `GET /threads`. */
export const ThreadListItemSchema = z.looseObject({
  /** `thread`. */
  object: z.string().nullish(),
  id: z.string(),
  /** Taken from the first message. */
  title: z.string().nullish(),
  /** ISO 8601. */
  updated_at: z.string().nullish(),
  message_count: z.number().nullish(),
});
/** A thread as listed. */
export type ThreadListItem = z.infer<typeof ThreadListItemSchema>;

/** `GET /threads`: up to fifty threads, newest first. */
export const ThreadListSchema = z.looseObject({
  /** `list`. */
  object: z.string().nullish(),
  data: z.array(ThreadListItemSchema),
});
/** The thread list. */
export type ThreadList = z.infer<typeof ThreadListSchema>;

/** One message of a thread. */
export const MessageSchema = z.looseObject({
  id: z.string(),
  /** `user`, `assistant`, … (values not given by the spec). */
  role: z.string(),
  text: z.string().nullish(),
  tool_results: listOf(ToolResultSchema),
});
/** A thread message. */
export type Message = z.infer<typeof MessageSchema>;

/** `GET /threads/{id}`. */
export const ThreadSchema = z.looseObject({
  id: z.string(),
  title: z.string().nullish(),
  updated_at: z.string().nullish(),
  /** The most recent run of the thread, whatever its state; read it to see if the thread is busy. */
  latest_run_id: z.string().nullish(),
  messages: listOf(MessageSchema),
});
/** A thread read. */
export type Thread = z.infer<typeof ThreadSchema>;
