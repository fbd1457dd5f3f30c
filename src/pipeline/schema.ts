import { z } from 'zod';
import { policySchema } from '../policy/index.js';

/** Download settings as a pipeline file writes them (`download: false` is short for disabled). */
const downloadFileSchema = z.preprocess(
  (v) => (typeof v === 'boolean' ? { enabled: v } : v),
  z.strictObject({
    /** @default true */
    enabled: z.boolean().default(true),
    /** Files downloaded at once. @default DEFAULT_DOWNLOAD_CONCURRENCY (store/types.ts), filled in by whoever runs the batch */
    concurrency: z.int().min(1).max(1000).optional(),
    /** Download folder, relative to the pipeline file. */
    out: z.string().min(1).optional(),
  }),
);

/** A pipeline file as written (strict: an unknown key is an error). */
export const pipelineFileSchema = z.strictObject({
  /** Batch name. */
  name: z.string().min(1).optional(),
  /** Question set (CSV or JSONL), relative to the pipeline file. */
  questions: z.string().min(1),
  /** Runs in flight at once. */
  concurrency: z.int().min(1).max(10_000).optional(),
  /** A policy file path (relative to the pipeline file) or an inline policy; checked apart. */
  policy: z.unknown().optional(),
  download: downloadFileSchema.optional(),
  /** `sim` or a base URL ending in /api/v1; checked apart. */
  service: z.string().min(1).optional(),
  /** How runs are followed. */
  follow: z.enum(['sse', 'poll']).optional(),
  /** Where `resq cancel` cancels a run, `{id}` standing for its id (the spec names no route). */
  cancel_route: z.string().min(1).optional(),
  /** A scorers file (relative to the pipeline file): every worker judges each item as it completes. */
  score: z.string().min(1).optional(),
});

/** A loaded pipeline: paths absolute, policy parsed, defaults filled in. */
export const pipelineSchema = z.strictObject({
  /** Absolute path of the pipeline file. */
  file: z.string(),
  /** Batch name, when the file gives one. */
  name: z.string().nullable(),
  /** Absolute path of the question set. */
  questions: z.string(),
  /** Runs in flight at once, when the file gives it. */
  concurrency: z.int().positive().nullable(),
  /** The policy, inline or from its file; null when the file gives none. */
  policy: policySchema.nullable(),
  download: z.strictObject({
    enabled: z.boolean(),
    /** Files downloaded at once, when the file gives it. */
    concurrency: z.int().positive().nullable(),
    /** Absolute download folder, when the file gives one. */
    out: z.string().nullable(),
  }),
  /** Where runs go, when the file says. The API key is never part of it. */
  service: z
    .discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('sim') }),
      z.strictObject({ kind: z.literal('url'), baseUrl: z.string() }),
    ])
    .nullable(),
  follow: z.enum(['sse', 'poll']).nullable(),
  /** The cancel route template, when the file gives one. */
  cancelRoute: z.string().nullable(),
  /** Absolute path of the scorers file, when the file gives one. */
  score: z.string().optional(),
});

/** A loaded pipeline. */
export type Pipeline = z.infer<typeof pipelineSchema>;
