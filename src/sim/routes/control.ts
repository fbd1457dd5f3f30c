import type { IncomingMessage } from 'node:http';
import type { SimDeps } from '../deps.js';
import { faultProblems } from '../faults.js';
import { HttpError, readJson, type Reply } from '../http-io.js';
import type { Faults } from '../types.js';

/**
 * The unauthenticated control surface under /_sim: counters, faults, clock, reset, and the
 * read-only ledger (the simulator's own record of runs, idempotency keys and files).
 * Answers undefined for a path it does not know.
 */
export async function control(req: IncomingMessage, path: string, d: SimDeps): Promise<Reply | undefined> {
  const method = req.method ?? 'GET';
  const only = (m: string[]): void => {
    if (!m.includes(method)) throw new HttpError(405, 'method_not_allowed', `${method} not allowed on ${path}`, { allow: m.join(', ') });
  };
  switch (path) {
    case '/_sim/counters':
      only(['GET']);
      return { status: 200, body: d.counters.snapshot() };
    case '/_sim/faults': {
      only(['GET', 'POST', 'DELETE']);
      if (method === 'DELETE') d.faults.clear();
      if (method === 'POST') {
        const body = (await readJson(req)) ?? {};
        const problems = faultProblems(body);
        if (problems.length) throw new HttpError(400, 'invalid_request', problems.join('; '));
        d.faults.set(body as Partial<Faults>);
      }
      return { status: 200, body: d.faults.get() };
    }
    case '/_sim/clock': {
      only(['GET', 'POST']);
      if (method === 'POST') {
        const body = (await readJson(req)) as { advanceMs?: unknown } | undefined;
        const ms = body?.advanceMs;
        if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
          throw new HttpError(400, 'invalid_request', 'advanceMs must be a number >= 0');
        }
        d.clock.advance(ms);
      }
      return { status: 200, body: { now: d.clock.iso() } };
    }
    case '/_sim/ledger':
      only(['GET']);
      return { status: 200, body: d.ledger.read(d.store) };
    case '/_sim/reset':
      only(['POST']);
      d.counters.reset();
      return { status: 200, body: d.counters.snapshot() };
    default:
      return undefined;
  }
}
