import { request } from 'node:http';
import { join } from 'node:path';
import { parsePolicy } from '../../../src/config/index.js';
import { pullFiles } from '../../../src/files/index.js';
import { BatchRunner } from '../../../src/runner/index.js';
import { startSim, type Sim } from '../../../src/sim/index.js';
import { openStore, type BatchRecord, type Store } from '../../../src/store/index.js';
import { startWebServer, type WebServer } from '../../../src/web/server.js';
import { tempDir } from '../../support/cli.js';
import { testClient } from '../../support/in-process.js';
import { runCsvBatch } from '../../support/two-batches.js';

/** The questions of the standard web batch: a plain one with files, a plan, a multi-choice, an image, a hostile one, a failure. */
export const WEB_CSV = [
  'id,question,lab',
  'plain,"Plain question @files=md,csv,png,pdb",north',
  'plan,Costly plan @confirm=50,south',
  'multi,Pick routes @choice=multi,north',
  'image,Pretty figure @image,south',
  'bad,"Hostile <b>meta</b> @hostile @files=png",<img src=x onerror=alert(1)>',
  'doomed,Doomed @fail,east',
].join('\n');

/** A finished batch (pauses held: no policy) with its files on disk, and a web server over it. */
export interface WebFixture {
  sim: Sim;
  store: Store;
  dir: string;
  batch: BatchRecord;
  server: WebServer;
  /** Runs the batch again until nothing is left to send (answers recorded meanwhile are sent). */
  resume(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the simulator, runs {@link WEB_CSV} to the end (held pauses stay held), downloads its files and serves the database. */
export async function webFixture(o: { csv?: string; name?: string; /** The simulator's API keys (key → account). */ keys?: Record<string, string>; /** The batch's policy (none: every pause held). */ policy?: Record<string, unknown> } = {}): Promise<WebFixture> {
  const sim = await startSim({ defaultDurationMs: 20, ...(o.keys ? { keys: o.keys } : {}) });
  const dir = tempDir('resq-web-');
  const store = await openStore(join(dir, 'resq.db'));
  const ran = await runCsvBatch(sim, store, dir, o.name ?? 'web', o.csv ?? WEB_CSV, o.policy ?? null);
  // The out folder is recorded with the batch, as `resq run` records it: the web view serves files only from there.
  await store.updateBatchSettings(ran.id, { ...ran.settings, download: { ...ran.settings.download, out: join(dir, 'out') } }, ran.policy, ran.baseUrl);
  const batch = (await store.findBatch(ran.id))!;
  const client = testClient(sim);
  await pullFiles({ store, client, batches: [batch] });
  await client.close();
  const server = await startWebServer({ store, port: 0 });
  return {
    sim,
    store,
    dir,
    batch,
    server,
    resume: async () => {
      const c = testClient(sim);
      try {
        await new BatchRunner({ store, client: c, batch, policy: batch.policy === null ? null : parsePolicy(batch.policy, 'policy.yaml') }).run();
      } finally {
        await c.close();
      }
    },
    close: async () => {
      await server.close();
      await store.close();
      await sim.close();
    },
  };
}

/** A raw HTTP request (a Host header of our choosing, which fetch does not allow). */
export function rawRequest(url: string, o: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: o.method ?? 'GET', headers: o.headers ?? {} }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

/** Headers of a script holding the token. */
export const bearer = (s: WebServer): Record<string, string> => ({ Authorization: `Bearer ${s.token}` });
