import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { InputError } from '../../errors.js';
import type { Pipeline } from '../../pipeline/index.js';
import type { Policy } from '../../policy/index.js';
import type { ScorerSpec } from '../../score/types.js';
import type { BatchSettings } from '../../store/index.js';
import { DEFAULT_DOWNLOAD_CONCURRENCY } from '../../store/settings-defaults.js';
import type { Overrides } from '../../runner/batch-overrides.js';
import type { CommandContext } from '../command-context.js';
import type { CliIo } from '../io.js';
import { wholeNumber } from '../whole-number.js';
import type { NotifyFlags } from '../notify-settings.js';
import { notifyFlagsOf, notifyOptions } from '../notify-flags.js';

/** Flags of `resq run`. */
export interface RunArgs {
  input: string;
  db: string;
  out?: string | undefined;
  concurrency?: number | undefined;
  policy?: string | undefined;
  batch?: string | undefined;
  sim?: boolean | undefined;
  baseUrl?: string | undefined;
  follow?: 'sse' | 'poll' | undefined;
  download: boolean;
  skipInvalid: boolean;
  /** The batch exists and its question set grew: append the new rows (existing rows must be unchanged). */
  append?: boolean;
  dryRun: boolean;
  json: boolean;
  limit?: number | undefined;
  wait: boolean;
  /** A scorers file: every worker judges each item as it completes (stored with the batch; its command scorers run here). */
  score?: string | undefined;
}

/** `resq run`'s flags with the notification ones. */
type RunFlags = RunArgs & NotifyFlags;

const PIPELINE_EXT = /\.(ya?ml|json)$/i;

/** Registers `resq run`. */
export function runCommand(y: Argv, ctx: CommandContext): Argv {
  return y.command(
    'run <input>',
    'run a question set (CSV/JSONL) or a pipeline file (YAML/JSON) as a batch',
    (a) =>
      notifyOptions(a)
        .positional('input', { type: 'string', demandOption: true, describe: 'pipeline.yaml, questions.csv or questions.jsonl' })
        .option('out', { type: 'string', describe: 'folder for downloaded files (default out)' })
        .option('concurrency', { type: 'number', describe: 'most runs in flight (default 8)' })
        .option('policy', { type: 'string', describe: 'auto-answer policy file (YAML/JSON); none = hold every pause' })
        .option('score', { type: 'string', describe: 'scorers file (YAML): judge each answer as it completes (stored with the batch)' })
        .option('batch', { type: 'string', describe: 'batch name; an existing name resumes that batch' })
        .option('sim', { type: 'boolean', describe: 'use the built-in simulator (no account needed)' })
        .option('base-url', { type: 'string', describe: 'service base URL ending in /api/v1 (default $RESQ_BASE_URL)' })
        .option('follow', { choices: ['sse', 'poll'] as const, describe: 'how runs are followed (default sse)' })
        .option('download', { type: 'boolean', default: true, describe: 'download files while the batch runs (--no-download: later, with resq files pull)' })
        .option('skip-invalid', { type: 'boolean', default: false, describe: 'run the valid rows and record the invalid ones' })
        .option('append', { type: 'boolean', describe: 'the question set grew: append its new rows to the batch (rows it has must be unchanged)' })
        .option('dry-run', { type: 'boolean', default: false, describe: 'validate and record the batch, submit nothing' })
        .option('limit', { type: 'number', describe: 'submit only the next N queued items now (the rest stay queued)' })
        .option('wait', { type: 'boolean', default: true, describe: 'when nothing is left to claim, wait for other workers of the batch (--no-wait: leave)' }),
    async (argv) => {
      ctx.code = await runHandler(argv as unknown as RunFlags, ctx.io);
    },
  );
}

interface Resolved {
  questions: string;
  name: string;
  policy: Policy | null;
  settings: BatchSettings;
  sim: boolean;
  baseUrl: string | undefined;
  /** What was given on the command line or in the pipeline: it overrides an existing batch's settings. */
  overrides: Overrides;
  /** This worker's download folder, when given (not recorded over an existing batch's). */
  out: string | null;
  /** This worker's own notify command (`--notify-command`): run here, never recorded. */
  notifyCommand: string | null;
  /** The scorers this command line gave (`--score` or the pipeline's `score:`), or null. */
  scorers: ScorerSpec[] | null;
}

async function resolveInputs(a: RunFlags, env: NodeJS.ProcessEnv): Promise<Resolved> {
  // Pipelines and policies (zod, yaml) are loaded only when the command line has one.
  let pipeline: Pipeline | null = null;
  if (PIPELINE_EXT.test(a.input)) pipeline = await (await import('../../pipeline/index.js')).loadPipeline(a.input);
  else if (!/\.(csv|tsv|jsonl|ndjson)$/i.test(a.input))
    throw new InputError(`${a.input}: expected a pipeline (.yaml, .yml, .json) or a question set (.csv, .tsv, .jsonl)`);
  const questions = pipeline?.questions ?? a.input;
  const policy = a.policy ? await (await import('../../config/policy-file.js')).loadPolicyFile(a.policy) : (pipeline?.policy ?? null);
  const concurrency = wholeNumber('concurrency', a.concurrency ?? pipeline?.concurrency ?? 8, 1, 10_000);
  wholeNumber('limit', a.limit, 1, Number.MAX_SAFE_INTEGER);
  const service = pipeline?.service ?? null;
  const sim = a.sim ?? (a.baseUrl ? false : service?.kind === 'sim');
  const baseUrl = a.baseUrl ?? (service?.kind === 'url' ? service.baseUrl : undefined);
  const outFromPipeline = pipeline?.download.out ?? null;
  const { defaultBatchName } = await import('../../runner/batch-source.js');
  const out = a.out ?? outFromPipeline;
  // Receivers are checked before anything is recorded or sent (a bad URL: one line, exit 2).
  const notifySettings = await import('../notify-settings.js');
  const notify = notifySettings.notifyFromFlags(notifyFlagsOf(a), env);
  const scoreFile = a.score ?? pipeline?.score;
  const scorers = scoreFile ? await (await import('../../score/scorers-file.js')).parseScorersFile(scoreFile) : null;
  const overrides: Overrides = {
    ...(notify ? { notify } : {}),
    ...(scorers ? { scorers } : {}),
    ...(a.concurrency !== undefined || pipeline?.concurrency !== undefined ? { concurrency } : {}),
    ...((a.follow ?? pipeline?.follow) ? { follow: (a.follow ?? pipeline?.follow)! } : {}),
    ...(a.download === false || pipeline?.download.enabled === false ? { download: false as const } : {}),
    ...(a.policy || pipeline?.policy ? { policy } : {}),
    ...(a.baseUrl || service?.kind === 'url' ? { baseUrl: baseUrl ?? null } : {}),
  };
  return {
    overrides,
    out: out ? resolve(out) : null,
    notifyCommand: notifySettings.notifyCommandOf(a),
    scorers,
    questions,
    name: a.batch ?? pipeline?.name ?? defaultBatchName(questions),
    policy,
    sim,
    baseUrl,
    settings: {
      concurrency,
      follow: a.follow ?? pipeline?.follow ?? 'sse',
      download: {
        enabled: a.download && (pipeline?.download.enabled ?? true),
        concurrency: pipeline?.download.concurrency ?? DEFAULT_DOWNLOAD_CONCURRENCY,
        out: resolve(a.out ?? outFromPipeline ?? 'out'),
      },
      pipelineFile: pipeline ? resolve(pipeline.file) : null,
      service: sim ? 'sim' : 'url',
      cancelRoute: pipeline?.cancelRoute ?? null,
      ...(notify ? { notify } : {}),
      ...(scorers ? { scorers } : {}),
    },
  };
}

/** `resq run`: parse, then the library's batch session (load or join, run, download) drives it. Returns the exit code. */
export async function runHandler(a: RunFlags, io: CliIo): Promise<number> {
  // Loaded when the command runs (see cli.ts); the session brings the runner when runs are submitted.
  const [{ openStore }, { driveSession }] = await Promise.all([import('../../store/open.js'), import('../attach.js')]);
  if (a.batch === '') throw new InputError('--batch: give a name (or leave it out for the default)');
  const r = await resolveInputs(a, io.env);
  // A folder, a file that is not a database or a folder that is not there: one plain line.
  const { checkDbPath, removeDatabase } = await import('../db-path.js');
  const { exists: dbExisted } = checkDbPath(a.db);
  // A PostgreSQL server starting up or restarting, or failing in passing later, is waited on, said on stderr.
  const { leaseMsFromEnv } = await import('../lease-env.js');
  const leaseMs = leaseMsFromEnv(io.env);
  const store = await openStore(a.db, { onWait: (m) => io.stderr.write(`${m}\n`), ...(leaseMs !== undefined ? { leaseMs } : {}) });
  try {
    const service = { sim: a.sim ?? (r.sim ? true : undefined), baseUrl: r.baseUrl };
    return await driveSession({
      store,
      dbPath: a.db,
      json: a.json,
      io,
      service,
      session: {
        source: {
          questions: r.questions,
          name: r.name,
          settings: r.settings,
          policy: r.policy,
          baseUrl: r.sim ? null : (r.baseUrl ?? io.env.RESQ_BASE_URL ?? null),
          skipInvalid: a.skipInvalid,
          append: a.append ?? false,
        },
        overrides: r.overrides,
        out: r.out,
        dryRun: a.dryRun,
        ...(a.limit !== undefined ? { limit: a.limit } : {}),
        wait: a.wait,
        notify: (await import('../notify-flags.js')).sendOptionsFromEnv(io.env, leaseMs, r.notifyCommand, a.db),
        scorers: r.scorers,
      },
    });
  } catch (e) {
    // A batch of this name from another file, or its file changed: said in the words that fit.
    const { SourceChangedError } = await import('../../runner/batch-source.js');
    const said = e instanceof SourceChangedError ? (await import('../same-source.js')).sourceMismatch(e.batch, r.questions, e) : e;
    // The suggested `resq run FILE --append` carries what this command line needs to run as pasted.
    if (said === e && e instanceof SourceChangedError && e.appendArgv) {
      const { commandHint } = await import('../../text/command-hint.js');
      const argv = [...e.appendArgv, ...(a.batch ? ['--batch', a.batch] : []), ...(a.skipInvalid ? ['--skip-invalid'] : [])];
      throw new InputError(e.message.replace(commandHint(e.appendArgv), commandHint(argv, { db: a.db, sim: r.sim })));
    }
    throw said;
  } finally {
    // A refused run (bad input, a refused key, an unreachable service) leaves no empty database
    // behind; one another process recorded a batch in meanwhile is not empty, and stays.
    const empty = !dbExisted && (await (await import('../../read/batch-list.js')).holdsNoBatch(store).catch(() => false));
    await store.close();
    if (empty) removeDatabase(a.db);
  }
}
