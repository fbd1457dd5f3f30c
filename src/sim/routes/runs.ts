import { answerProblem, isObject, summariseAnswer } from '../answers.js';
import type { SimDeps } from '../deps.js';
import { HttpError, idempotencyKeyOf, readJson, type Reply } from '../http-io.js';
import type { RunRecord, ThreadRecord } from '../records.js';
import type { RouteContext } from '../router.js';
import { threadMessageCount } from '../thread-messages.js';

/** POST /runs: admits a run on a new or existing thread. */
export async function createRun(ctx: RouteContext, d: SimDeps): Promise<Reply> {
  const key = idempotencyKeyOf(ctx.req);
  const body = await readJson(ctx.req, (text) => d.ledger.keyed(ctx.account, ctx.scope, key, text));
  const replay = replayOf(ctx, d, key);
  if (replay) return replay;

  if (!isObject(body)) throw new HttpError(400, 'invalid_request', 'body must be a JSON object with input');
  const { input, thread_id: threadId } = body;
  if (typeof input !== 'string' || input.trim() === '') throw new HttpError(400, 'invalid_request', 'input must be a non-empty string');
  if (threadId !== undefined && threadId !== null && typeof threadId !== 'string') {
    throw new HttpError(400, 'invalid_request', 'thread_id must be a string');
  }

  let thread: ThreadRecord | undefined;
  if (typeof threadId === 'string') {
    thread = d.store.thread(ctx.account, threadId);
    if (!thread) throw new HttpError(404, 'not_found', `thread ${threadId} not found`);
    if (d.store.isThreadBusy(thread)) throw new HttpError(409, 'thread_busy', `thread ${threadId} already has a run going`);
  }
  checkRunningLimit(ctx, d);

  const now = d.clock.now();
  thread ??= d.store.newThread(ctx.account, input, now);
  const earlierMessages = threadMessageCount(thread, { run: (id) => d.store.runs.get(id), isFinished: (r) => d.engine.isFinished(r) });
  // The user's message is the run's input (see thread-messages.ts).
  const run = d.engine.start({
    account: ctx.account,
    thread,
    chain: { input, answers: NO_ANSWERS, narrow: false, earlierMessages },
    step: 0,
    parentId: null,
  });
  remember(ctx, d, key, run);
  d.journal?.runStarted(run, thread, key === undefined ? null : scopeKey(ctx, key));
  d.counters.runAdmitted(input, ctx.routeKey, key);
  return { status: 200, body: d.engine.view(run) };
}

const NO_ANSWERS: readonly string[] = Object.freeze([]);

/** GET /runs/{id}: the run with what it has written so far. */
export async function getRun(ctx: RouteContext, d: SimDeps): Promise<Reply> {
  return { status: 200, body: d.engine.view(findRun(ctx, d)) };
}

/** POST /runs/{id}/respond: answers a paused run with a new run that carries on. */
export async function respond(ctx: RouteContext, d: SimDeps): Promise<Reply> {
  const key = idempotencyKeyOf(ctx.req);
  const body = await readJson(ctx.req, (text) => d.ledger.keyed(ctx.account, ctx.scope, key, text));
  const run = findRun(ctx, d);
  const replay = replayOf(ctx, d, key);
  if (replay) return replay;

  if (run.answeredBy !== null) {
    throw new HttpError(409, 'run_not_waiting', `run ${run.id} was already answered (by run ${run.answeredBy})`);
  }
  const requiredAction = run.status === 'requires_action' ? d.engine.state(run).requiredAction : null;
  if (!requiredAction) {
    throw new HttpError(409, 'run_not_waiting', `run ${run.id} is ${run.status}, not requires_action`);
  }
  const answer = isObject(body) ? body.answer : undefined;
  if (answer === undefined) throw new HttpError(400, 'invalid_request', 'body must be a JSON object with answer');
  const problem = answerProblem(requiredAction, answer);
  if (problem) throw new HttpError(400, 'invalid_request', problem);
  const thread = d.store.thread(ctx.account, run.threadId);
  if (!thread) throw new HttpError(404, 'not_found', `thread ${run.threadId} of run ${run.id} was deleted`);
  if (d.store.isThreadBusy(thread)) throw new HttpError(409, 'thread_busy', `thread ${thread.id} already has a run going`);
  checkRunningLimit(ctx, d);

  const summary = summariseAnswer(requiredAction, answer as Record<string, unknown>);
  const next = d.engine.start({
    account: ctx.account,
    thread,
    chain: { ...run.chain, answers: [...run.chain.answers, summary.line], narrow: run.chain.narrow || summary.narrow },
    step: run.step + 1,
    parentId: run.id,
  });
  run.answeredBy = next.id;
  remember(ctx, d, key, next);
  // One record: the new run, its parent answered, the key (a kill never keeps half of them).
  d.journal?.runStarted(next, thread, key === undefined ? null : scopeKey(ctx, key));
  d.counters.respondRun(ctx.routeKey, key);
  if (run.pausedAt !== null) d.counters.answered(ctx.arrivedAt - run.pausedAt);
  return { status: 200, body: d.engine.view(next) };
}

/**
 * POST /runs/{id}/cancel (the spec names no path; resq uses this one): a running run moves
 * to `cancelling`, then `cancelled`. Cancelling one already cancelling answers it as it is;
 * a finished run answers 409 `run_finished`.
 */
export async function cancelRun(ctx: RouteContext, d: SimDeps): Promise<Reply> {
  const run = findRun(ctx, d);
  if (run.status === 'running') d.engine.cancel(run);
  else if (run.status !== 'cancelling') throw new HttpError(409, 'run_finished', `run ${run.id} is ${run.status}, not running`);
  return { status: 200, body: d.engine.view(run) };
}

function findRun(ctx: RouteContext, d: SimDeps): RunRecord {
  const id = ctx.params.id ?? '';
  const run = d.store.run(ctx.account, id);
  if (!run) throw new HttpError(404, 'not_found', `run ${id} not found`);
  return run;
}

function checkRunningLimit(ctx: RouteContext, d: SimDeps): void {
  if (d.counters.runningNow(ctx.account) >= d.opts.maxRunningPerAccount) {
    throw new HttpError(429, 'too_many_runs', `account already has ${d.opts.maxRunningPerAccount} runs going`, {
      'retry-after': '1',
    });
  }
}

function scopeKey(ctx: RouteContext, key: string): string {
  return `${ctx.account} ${ctx.scope} ${key}`;
}

function replayOf(ctx: RouteContext, d: SimDeps, key: string | undefined): Reply | undefined {
  if (key === undefined) return undefined;
  const id = d.store.idempotency.get(scopeKey(ctx, key));
  const run = id === undefined ? undefined : d.store.runs.get(id);
  return run ? { status: 200, body: d.engine.view(run), headers: { 'idempotent-replayed': 'true' } } : undefined;
}

function remember(ctx: RouteContext, d: SimDeps, key: string | undefined, run: RunRecord): void {
  if (key !== undefined) d.store.idempotency.set(scopeKey(ctx, key), run.id);
}
