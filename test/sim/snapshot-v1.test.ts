import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScript } from '../../src/sim/directives.js';
import { startSim } from '../../src/sim/index.js';
import { scriptInput } from '../../src/sim/snapshot-v1.js';
import { tempDir } from '../support/cli.js';
import { recordState, someFinishedRuns } from './helpers.js';

describe('version 1 state files', () => {
  it('reads a version 1 state file (whole event logs and transcripts) and gives back the same runs', async () => {
    const state = join(tempDir(), 'v1.sim.json');
    const first = await startSim({ defaultDurationMs: 20, statePath: state });
    const { runIds, threadIds } = await someFinishedRuns(first);
    const before = await recordState(first, runIds, threadIds);
    await first.close();
    // Write the same state as version 1 did: output, event log and parsed script in each run, transcripts in threads.
    const v2 = JSON.parse(readFileSync(state, 'utf8'));
    const v1 = {
      ...v2,
      version: 1,
      runs: v2.runs.map(({ callIds: _c, fileIds: _f, chain, ...r }: any) => {
        const rec = before.runs[runIds.indexOf(r.id)]!;
        return {
          ...r,
          text: rec.read.output.text,
          toolResults: rec.read.output.tool_results,
          requiredAction: rec.read.required_action ?? null,
          error: rec.read.error ?? null,
          events: rec.events,
          chain: { script: parseScript(chain.input), answers: chain.answers, narrow: chain.narrow, earlierMessages: chain.earlierMessages },
        };
      }),
      threads: v2.threads.map((t: any) => ({ ...t, messages: before.threads[threadIds.indexOf(t.id)]!.messages })),
    };
    writeFileSync(state, JSON.stringify(v1));
    await new Promise((r) => setTimeout(r, 50));
    const second = await startSim({ defaultDurationMs: 20, statePath: state });
    try {
      const after = await recordState(second, runIds, threadIds);
      expect(after.runs).toEqual(before.runs);
      // Message ids are derived anew; everything else of the transcript is kept.
      const strip = (ts: any[]) => ts.map((t) => ({ ...t, messages: t.messages.map(({ id: _i, ...m }: any) => m) }));
      expect(strip(after.threads)).toEqual(strip(before.threads));
    } finally {
      await second.close();
    }
  });
});

describe('scriptInput', () => {
  it('writes directives that parse back to the same script', () => {
    for (const input of ['q', 'plain question @duration=1.5s', 'x @confirm=3 @choice=multi @choice @image @tool=pick_one', 'f @files=md,csv:noname,pdb @filename=a%20b.md @size=64kb @deltas=0', 'bad @fail @status=cancelling', 'few @nosearch @deltas=1']) {
      const s = parseScript(input);
      expect(parseScript(scriptInput(s))).toEqual(s);
    }
  });
});
