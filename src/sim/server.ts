import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SimClock } from './clock.js';
import { CounterBook } from './counters.js';
import { resolveOptions, type SimDeps } from './deps.js';
import { FaultPlan } from './faults.js';
import { errorReply, HttpError, sendJson, type Reply } from './http-io.js';
import { newRequestId } from './ids.js';
import { RequestLedger } from './ledger.js';
import { journalPathOf, readJournal, SimJournal, type JournalRecord } from './journal.js';
import { ModelJobs } from './model-jobs.js';
import { matchRoute, type RouteContext } from './router.js';
import { control } from './routes/control.js';
import { apiRoutes } from './routes/table.js';
import { RunEngine } from './run-engine.js';
import { readSnapshot, restoreSnapshot, takeSnapshot, writeSnapshot } from './snapshot.js';
import { lockState } from './state-lock.js';
import { SimStore } from './store.js';
import { TimerSet } from './timers.js';
import { isMachineShort } from './machine-short.js';
import type { Sim, SimOptions } from './types.js';

const API_PREFIX = '/api/v1';

/** Starts the simulator on `opts.port` (0 = a free port) and resolves once it listens. */
export async function startSim(options: SimOptions = {}): Promise<Sim> {
  const opts = resolveOptions(options);
  const statePath = opts.statePath;
  // One process at a time keeps a state file: each saves its whole state, so two would lose each other's runs.
  const lock = statePath ? lockState(statePath) : null;
  let saved: ReturnType<typeof readSnapshot> = null;
  let replay: JournalRecord[] = [];
  let journal: SimJournal | null = null;
  try {
    if (statePath) {
      saved = readSnapshot(statePath);
      // The journal holds what was acknowledged after the snapshot; a snapshot from before journals has none to follow.
      if (saved?.journalSeq !== undefined) replay = readJournal(journalPathOf(statePath), saved.journalSeq);
      journal = new SimJournal(journalPathOf(statePath), Math.max(saved?.journalSeq ?? 0, replay.at(-1)?.n ?? 0));
    }
  } catch (e) {
    lock?.release();
    throw e;
  }
  let origin = '';
  const timers = new TimerSet();
  const clock = new SimClock();
  const counters = new CounterBook();
  const faults = new FaultPlan(opts.seed);
  const store = new SimStore();
  const ledger = new RequestLedger();
  const baseUrl = (): string => `${origin}${API_PREFIX}`;
  const engine = new RunEngine({ store, counters, clock, timers, baseUrl, defaultDurationMs: opts.defaultDurationMs, runTimes: opts.runTimes, journal });
  const models = new ModelJobs({ store, counters, clock, timers, baseUrl, origin: () => origin, modelJobMs: opts.modelJobMs, journal });
  const deps: SimDeps = { opts, store, engine, models, counters, clock, timers, faults, ledger, journal, baseUrl, origin: () => origin };
  const handle = requestHandler(deps);

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      // A bug in a handler must not take the server down; the client sees a 500 or a reset.
      if (!res.headersSent) sendJson(res, 500, { error: { code: 'internal_error', message: 'simulator error' } });
      else res.destroy();
    });
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, opts.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  // A restored simulator takes its old port when it may: the URLs recorded (files, poll URLs) stay valid.
  const previousPort = saved && opts.port === 0 ? Number(new URL(saved.origin).port) : 0;
  try {
    try {
      await listen(previousPort || opts.port);
    } catch (e) {
      if (!previousPort) throw e;
      await listen(0);
    }
  } catch (e) {
    journal?.close();
    lock?.release();
    throw e;
  }
  // A connection this process had no descriptor for (accept EMFILE): libuv sheds it and the
  // client tries again; the server keeps listening. Anything else is thrown as before.
  server.on('error', (e) => {
    if (!isMachineShort(e)) throw e;
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`;
  let savedVersion = -1;
  let nextSaveAt = 0;
  // Compaction: the whole state to the snapshot (renamed into place), then the journal emptied.
  // Changes in between are in the journal, written before each reply that acknowledges one, so
  // a large state is compacted less often: at most 5% of the time goes to writing it.
  // This machine short of open files, memory or disk (EMFILE, ENOSPC, …): the changes stay in
  // the journal and the snapshot is written at a later tick — waited on, never a crash.
  const save = (force = true): boolean => {
    if (!statePath || !journal || store.version === savedVersion) return true;
    const t = performance.now();
    if (!force && t < nextSaveAt) return true;
    try {
      writeSnapshot(statePath, takeSnapshot(store, clock, origin, journal.seq));
    } catch (e) {
      if (!isMachineShort(e)) throw e;
      return false;
    }
    savedVersion = store.version;
    journal.truncate();
    const now = performance.now();
    nextSaveAt = now + 19 * (now - t);
    return true;
  };
  if (saved) restoreSnapshot(saved, { store, clock, engine, models, origin }, replay);
  if (journal) {
    const j = journal;
    clock.onAdvance = (offsetMs) => {
      j.clockMoved(offsetMs);
      store.touch();
    };
    save();
    timers.interval(() => save(false), 500);
  }
  if (lock && opts.serveState) lock.serve({ url: baseUrl(), key: Object.keys(opts.keys)[0] ?? '' });

  let closing: Promise<void> | undefined;
  return {
    url: baseUrl(),
    origin,
    keys: Object.keys(opts.keys),
    faults: { set: (f) => faults.set(f), get: () => faults.get(), clear: () => faults.clear() },
    clock: { now: () => clock.now(), advance: (ms) => clock.advance(ms) },
    counters: () => counters.snapshot(),
    resetCounters: () => counters.reset(),
    ledger: () => ledger.read(store),
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        // The snapshot holds everything: the journal goes (it stays when the save failed: read back at the next start).
        journal?.close(save());
        lock?.release();
        timers.closeAll();
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}

function requestHandler(d: SimDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const routes = apiRoutes(d);
  return async (req, res) => {
    const arrivedAt = performance.now();
    const requestId = newRequestId();
    res.setHeader('x-request-id', requestId);
    const { path, query } = splitTarget(req.url ?? '/');
    const send = (r: Reply): void => sendJson(res, r.status, r.body, r.headers);
    const fail = (e: HttpError): void => send(errorReply(e, requestId));

    if (path.startsWith('/_sim/')) {
      try {
        send((await control(req, path, d)) ?? errorReply(new HttpError(404, 'not_found', `no control at ${path}`), requestId));
      } catch (e) {
        if (e instanceof HttpError) fail(e);
        else throw e;
      }
      return;
    }
    if (path !== API_PREFIX && !path.startsWith(`${API_PREFIX}/`)) return fail(new HttpError(404, 'not_found', `nothing at ${path}`));

    const method = req.method ?? 'GET';
    const match = matchRoute(routes, method, path.slice(API_PREFIX.length) || '/');
    const routeKey = match.kind === 'none' ? 'unmatched' : match.routeKey;
    d.counters.request(routeKey);
    await d.timers.delay(d.faults.get().latencyMs);
    if (res.destroyed) return;

    const account = accountOf(req, d.opts.keys);
    if (account === undefined) {
      return fail(new HttpError(401, 'unauthorized', 'missing or unknown API key', { 'www-authenticate': 'Bearer' }));
    }
    if (match.kind === 'none') return fail(new HttpError(404, 'not_found', `no route ${method} ${path}`));
    if (match.kind === 'method') {
      return fail(new HttpError(405, 'method_not_allowed', `${method} not allowed on ${path}`, { allow: match.allow.join(', ') }));
    }

    const before = d.faults.drawBefore(routeKey);
    if (before) {
      d.counters.fault(before);
      if (before === 'dropBefore') return void req.socket.destroy();
      if (before === 'rate429') {
        const after = String(d.faults.get().retryAfterSeconds);
        return fail(new HttpError(429, 'rate_limited', 'rate limited (injected)', { 'retry-after': after }));
      }
      const status = d.faults.draw5xx();
      return fail(new HttpError(status, status === 500 ? 'internal_error' : status === 502 ? 'bad_gateway' : 'unavailable', `server error (injected ${status})`));
    }

    const afterFault = d.faults.drawAfter(routeKey);
    if (match.route.streams && afterFault === 'error5xxAfter') {
      d.counters.fault(afterFault);
      return fail(new HttpError(500, 'internal_error', 'server error (injected 500)'));
    }
    const ctx: RouteContext = {
      req,
      res,
      account,
      params: match.params,
      query,
      requestId,
      routeKey,
      scope: `${method} ${path}`,
      afterFault: match.route.streams ? afterFault : null,
      arrivedAt,
    };
    let reply: Reply | 'streamed';
    try {
      reply = await match.route.handler(ctx);
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      reply = errorReply(e, requestId);
    }
    if (reply === 'streamed' || res.destroyed) return;
    if (afterFault === 'error5xxAfter') {
      d.counters.fault(afterFault);
      return fail(new HttpError(500, 'internal_error', 'server error (injected 500, after the work was done)'));
    }
    if (afterFault === 'dropAfter') {
      d.counters.fault(afterFault);
      return void req.socket.destroy();
    }
    send(reply);
  };
}

const PLAIN_PATH = /^\/[\w\-/]*$/;
const NO_QUERY = new URLSearchParams();

/** Path and query of a request target; plain paths skip the URL parser (1 to 2% of the CPU under load). */
function splitTarget(target: string): { path: string; query: URLSearchParams } {
  const q = target.indexOf('?');
  const rawPath = q < 0 ? target : target.slice(0, q);
  if (PLAIN_PATH.test(rawPath)) {
    return { path: rawPath, query: q < 0 ? NO_QUERY : new URLSearchParams(target.slice(q + 1)) };
  }
  const url = new URL(target, 'http://sim.invalid');
  return { path: url.pathname, query: url.searchParams };
}

function accountOf(req: IncomingMessage, keys: Record<string, string>): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  const key = m?.[1];
  return key !== undefined && Object.hasOwn(keys, key) ? keys[key] : undefined;
}
