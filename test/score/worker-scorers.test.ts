import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBatchSession } from '../../src/runner/session.js';
import { parseScorers } from '../../src/score/scorers-file.js';
import { agentScorers, completedScorer, workerScorers } from '../../src/score/worker-scorers.js';
import type { ScorerSpec } from '../../src/score/types.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { tempDir } from '../support/cli.js';
import { testClient, testSettings } from '../support/in-process.js';

// Every worker judges what it completes, as it completes: with its own scorers file, or with the
// batch's stored scorers but their command ones (a program runs only where its own command line named it).

const dir = tempDir('resq-worker-scorers-');
let sim: Sim;
beforeAll(async () => {
  sim = await startSim({ defaultDurationMs: 5 });
});
afterAll(async () => sim.close());

/** A command scorer running `script`; `mark` is touched when it runs. */
function commandScorer(name: string, script: string): ScorerSpec {
  const path = join(dir, `${name}.sh`);
  writeFileSync(path, `#!/bin/sh\n${script}\n`);
  chmodSync(path, 0o755);
  return parseScorers(`scorers: [{name: ${name}, kind: command, command: ${JSON.stringify(path)}}]`, 's.yaml')[0]!;
}

const includes = parseScorers('scorers: [{name: mentions, kind: includes}, {name: judged, kind: agent, rubric: same?}]', 's.yaml');

/** Runs a fresh batch of three questions to the end with `stored` kept with it and `own` given as this worker's file. */
async function runWith(name: string, stored: ScorerSpec[], own: ScorerSpec[] | null): Promise<{ store: Store; batchId: string; states: string[] }> {
  const questions = join(dir, `${name}.jsonl`);
  writeFileSync(questions, ['{"id":"a","question":"about Paris","expected":"paris"}', '{"id":"b","question":"about Lyon","expected":"Paris"}', '{"id":"c","question":"no expected"}'].join('\n') + '\n');
  const store = await openStore(join(dir, `${name}.db`));
  const client = testClient(sim);
  try {
    const s = await runBatchSession({ store, source: { questions, name, settings: { ...testSettings(4), scorers: stored }, policy: null, baseUrl: sim.url }, service: client, scorers: own });
    return { store, batchId: s.batch.id, states: (await store.listItems(s.batch.id)).map((i) => i.state) };
  } finally {
    await client.close();
  }
}

const passes = async (store: Store, batchId: string, id: string) => Object.fromEntries((await store.verdictsOf(batchId, id)).map((v) => [v.scorer, [v.pass, v.reason]]));

describe('worker scorers', () => {
  it('a scorer that fails leaves the item unscored with the reason and never fails the item', async () => {
    const broken = commandScorer('broken', 'cat > /dev/null; exit 3');
    const { store, batchId, states } = await runWith('broken', [includes[0]!, broken], [includes[0]!, broken]);
    try {
      expect(states).toEqual(['completed', 'completed', 'completed']);
      expect(await passes(store, batchId, 'a')).toEqual({ mentions: [true, 'contains "paris"'], broken: [null, 'the scorer exited with 3'] });
      expect(await passes(store, batchId, 'b')).toEqual({ mentions: [false, 'does not contain "Paris"'], broken: [null, 'the scorer exited with 3'] });
      expect(await passes(store, batchId, 'c')).toEqual({ mentions: [null, 'no expected answer'], broken: [null, 'the scorer exited with 3'] });
    } finally {
      await store.close();
    }
  });

  it("a worker without its own file judges by the batch's stored scorers, never running a stored command", async () => {
    const mark = join(dir, 'ran.txt');
    const stored = commandScorer('stored', `cat > /dev/null; touch ${mark}; echo '{"pass": true}'`);
    const { store, batchId, states } = await runWith('stored', [includes[0]!, stored], null);
    try {
      expect(states).toEqual(['completed', 'completed', 'completed']);
      expect(await passes(store, batchId, 'a')).toEqual({ mentions: [true, 'contains "paris"'] });
      expect(existsSync(mark)).toBe(false);
    } finally {
      await store.close();
    }
  });

  it('picks the own file whole, else the stored scorers but command ones; agent scorers are left to the agent judge', () => {
    const cmd = commandScorer('c', 'true');
    expect(workerScorers([includes[0]!, cmd], null).map((s) => s.name)).toEqual(['mentions']);
    expect(workerScorers([includes[0]!], [cmd]).map((s) => s.name)).toEqual(['c']);
    expect(workerScorers(includes, undefined).map((s) => s.name)).toEqual(['mentions']);
    expect(workerScorers(undefined, null)).toEqual([]);
  });

  it('the agent scorers a run judges beside it: its own file\'s, else the stored ones; none for a judge batch itself', () => {
    const judged = includes[1]!;
    expect(agentScorers({ settings: { scorers: includes } }, null).map((s) => s.name)).toEqual(['judged']);
    expect(agentScorers({ settings: { scorers: includes } }, [includes[0]!])).toEqual([]);
    expect(agentScorers({ settings: {} }, [judged]).map((s) => s.name)).toEqual(['judged']);
    expect(agentScorers({ settings: { scorers: includes, judgeOf: 'parent-id' } }, [judged])).toEqual([]);
  });

  it('a verdict that cannot be recorded is told as a problem, never thrown into the run', async () => {
    const { store, batchId } = await runWith('unrecorded', [], null);
    try {
      const problems: string[] = [];
      const score = completedScorer(store, batchId, [includes[0]!], { onProblem: (m) => problems.push(m) })!;
      const [a] = await store.listItems(batchId, { limit: 1 });
      // The batch has no item of this id: the store refuses the verdicts.
      await expect(score({ ...a!, id: 'not-in-batch' })).resolves.toBeUndefined();
      expect(problems).toEqual([expect.stringMatching(/^item not-in-batch: its verdicts were not recorded \(.+\); `resq score` judges it$/)]);
      expect(completedScorer(store, batchId, [])).toBeNull();
    } finally {
      await store.close();
    }
  });
});
