import type { SimDeps } from '../deps.js';
import type { Route } from '../router.js';
import { streamEvents } from './events.js';
import { getFile } from './files.js';
import { describe, getModelRun, runModel } from './models.js';
import { cancelRun, createRun, getRun, respond } from './runs.js';
import { deleteThread, getThread, listThreads } from './threads.js';

/** Every /api/v1 route; the route key of each is `METHOD pattern`. */
export function apiRoutes(d: SimDeps): Route[] {
  return [
    { method: 'POST', pattern: '/runs', handler: (c) => createRun(c, d) },
    { method: 'GET', pattern: '/runs/:id', handler: (c) => getRun(c, d) },
    { method: 'GET', pattern: '/runs/:id/events', handler: (c) => streamEvents(c, d), streams: true },
    { method: 'POST', pattern: '/runs/:id/respond', handler: (c) => respond(c, d) },
    { method: 'POST', pattern: '/runs/:id/cancel', handler: (c) => cancelRun(c, d) },
    { method: 'GET', pattern: '/files/:id', handler: (c) => getFile(c, d), streams: true },
    { method: 'GET', pattern: '/threads', handler: (c) => listThreads(c, d) },
    { method: 'GET', pattern: '/threads/:id', handler: (c) => getThread(c, d) },
    { method: 'DELETE', pattern: '/threads/:id', handler: (c) => deleteThread(c, d) },
    { method: 'GET', pattern: '/models/:id', handler: (c) => describe(c, d) },
    { method: 'POST', pattern: '/models/:id/runs', handler: (c) => runModel(c, d) },
    { method: 'GET', pattern: '/model-runs/:id', handler: (c) => getModelRun(c, d) },
  ];
}
