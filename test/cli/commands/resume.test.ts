// `resq resume` of a --sim batch that sent nothing yet (recorded by `run --dry-run --sim`): it
// goes on, on SQLite and on PostgreSQL (real server, real CLI processes in a folder of their own).
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim } from '../../../src/sim/index.js';
import { runCliChild, tempDir } from '../../support/cli.js';
import { sharedPgServer, type SharedPg } from '../../support/pg-shared.js';

/** A folder with a three-question file. */
function questionsIn(): { dir: string; q: string } {
  const dir = tempDir('resq-resume-sim-');
  const q = join(dir, 'dry.csv');
  writeFileSync(q, 'id,question\nd1,first\nd2,second\nd3,third\n');
  return { dir, q };
}

/** `run --dry-run --sim`, then `resume --sim`: every item completes. */
async function dryRunThenResume(db: string, dir: string, q: string): Promise<string> {
  const env = { RESQ_DB: undefined };
  const dry = await runCliChild(['run', q, '--db', db, '--sim', '--dry-run'], env, dir);
  expect(dry.code, dry.stderr).toBe(0);
  const resumed = await runCliChild(['resume', 'dry', '--db', db, '--sim'], env, dir);
  expect(resumed.stderr).not.toMatch(/is not there/);
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(resumed.stdout).toContain('3 items — 3 completed');
  // Its state was made then: a later resume finds the runs it made.
  const again = await runCliChild(['resume', 'dry', '--db', db], env, dir);
  expect(again.code, again.stderr).toBe(0);
  return resumed.stdout;
}

describe('resume --sim after run --dry-run --sim', () => {
  let pg: SharedPg;
  beforeAll(async () => {
    pg = await sharedPgServer();
  }, 120_000);
  afterAll(async () => pg?.stop());

  it('SQLite: the resume completes every item (nothing ran, so no state was missing)', { timeout: 60_000 }, async () => {
    const { dir, q } = questionsIn();
    const db = join(dir, 'r.db');
    await dryRunThenResume(db, dir, q);
    expect(existsSync(`${db}.sim.json`)).toBe(true);
  });

  it('PostgreSQL: the resume completes every item', { timeout: 60_000 }, async () => {
    const { dir, q } = questionsIn();
    const db = await pg.createDatabase('dry_sim');
    await dryRunThenResume(db, dir, q);
  });

  it('PostgreSQL: a batch that did send runs, resumed from another folder, is refused plainly (its state is where it ran)', { timeout: 60_000 }, async () => {
    const { dir } = questionsIn();
    writeFileSync(join(dir, 'held.csv'), 'id,question\nh1,held @confirm=3\n');
    const db = await pg.createDatabase('ran_sim');
    const first = await runCliChild(['run', 'held.csv', '--db', db, '--sim'], { RESQ_DB: undefined }, dir);
    expect(first.code, first.stderr).toBe(3);
    const elsewhere = tempDir('resq-resume-elsewhere-');
    const r = await runCliChild(['resume', 'held', '--db', db], { RESQ_DB: undefined }, elsewhere);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`its state (${join(elsewhere, 'resq-sim-')}`);
    expect(r.stderr).toContain('kept in the folder its --sim processes ran in: resume from there');
    // From the folder it ran in, it goes on.
    const here = await runCliChild(['resume', 'held', '--db', db], { RESQ_DB: undefined }, dir);
    expect(here.stderr).not.toMatch(/is not there/);
    expect(here.code, here.stderr).toBe(3);
  });
});

describe('resume of a --sim batch against a served simulator', () => {
  it('the base URL line says the batch was on sim, not (none)', { timeout: 60_000 }, async () => {
    const sim = await startSim({ defaultDurationMs: 10 });
    try {
      const { dir, q } = questionsIn();
      const db = join(dir, 'r.db');
      expect((await runCliChild(['run', q, '--db', db, '--sim', '--dry-run'], { RESQ_DB: undefined }, dir)).code).toBe(0);
      const r = await runCliChild(['resume', 'dry', '--db', db, '--base-url', sim.url], { RESQ_DB: undefined, RESQ_API_KEY: sim.keys[0] }, dir);
      expect(r.code, r.stderr).toBe(0);
      expect(`${r.stdout}${r.stderr}`).toContain(`base URL: sim → ${sim.url}`);
      expect(`${r.stdout}${r.stderr}`).not.toContain('(none)');
    } finally {
      await sim.close();
    }
  });
});
