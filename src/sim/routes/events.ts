import type { SimDeps } from '../deps.js';
import { HttpError } from '../http-io.js';
import type { SimEvent } from '../records.js';
import type { RouteContext } from '../router.js';

/**
 * GET /runs/{id}/events: replays the run's log after `after`, then follows it live; ends
 * after the final `run` event, after streamMaxMs, or early when a fault says so.
 */
export async function streamEvents(ctx: RouteContext, d: SimDeps): Promise<'streamed'> {
  const id = ctx.params.id ?? '';
  const run = d.store.run(ctx.account, id);
  if (!run) throw new HttpError(404, 'not_found', `run ${id} not found`);
  const after = parseAfter(ctx.query.get('after'));

  const { res } = ctx;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  res.write('retry: 1000\n\n');

  const limit = d.faults.get().sseEndAfterEvents;
  let sent = 0;
  let closed = false;
  let unsubscribe = (): void => {};
  const keepAlive = d.timers.interval(() => res.write(': keepalive\n\n'), d.opts.keepAliveMs);
  const maxTimer = d.timers.timeout(() => end(), d.opts.streamMaxMs);

  // `abrupt` destroys the socket instead of ending the chunked body cleanly; `last` is
  // written with the end, so the final event and the end of the body leave together.
  function end(abrupt = false, last?: string): void {
    if (closed) return;
    closed = true;
    unsubscribe();
    d.timers.clear(keepAlive);
    d.timers.clear(maxTimer);
    // A short delay lets the headers and the last event reach the client before the reset.
    if (abrupt) d.timers.timeout(() => res.destroy(), 5);
    else if (!res.destroyed) res.end(last);
  }

  function send(e: SimEvent): void {
    if (closed) return;
    const chunk = (e.chunk ??= `id: ${e.id}\nevent: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`);
    sent++;
    if (e.event === 'run') return end(false, chunk);
    res.write(chunk);
    if (ctx.afterFault === 'dropAfter') {
      d.counters.fault('dropAfter');
      return end(true);
    }
    if (limit !== null && sent >= limit) {
      d.counters.fault('sseEndAfterEvents');
      end();
    }
  }

  res.on('close', () => end());
  if (limit === 0) {
    d.counters.fault('sseEndAfterEvents');
    end();
    return 'streamed';
  }
  // The log is worked out again from the run (run-state.ts); a stream opened as the run
  // starts has nothing to replay.
  const log = run.progress === 0 && !d.engine.isFinished(run) ? [] : d.engine.events(run);
  for (const e of log) {
    if (e.id > after && e.event !== 'run') send(e);
  }
  const final = log.at(-1);
  // A finished run always ends the stream with its run event, even when `after` is past it.
  if (final?.event === 'run') send(final);
  else if (!closed) unsubscribe = d.engine.follow(run, send);
  return 'streamed';
}

function parseAfter(raw: string | null): number {
  if (raw === null || raw === '') return -1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < -1) throw new HttpError(400, 'invalid_request', 'after must be an integer >= -1');
  return n;
}
