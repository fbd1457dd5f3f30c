import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/api/index.js';
import { InputError } from '../../src/errors.js';
import { prepareInputs, runOne } from '../../src/models/run-one.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { simClient } from './support/helpers.js';

describe('runOne against the simulator', () => {
  let sim: Sim;
  let client: ServiceClient;
  beforeAll(async () => {
    sim = await startSim({ modelJobMs: 150 });
    client = simClient(sim);
  });
  afterAll(async () => {
    await client.close();
    await sim.close();
  });

  it('runs a fast model inline (200) with a fresh key', async () => {
    const d = await client.describeModel('echo');
    const inputs = prepareInputs(d, 'echo', '{"text":"hi"}', ['repeat=2', 'shout=yes']);
    expect(inputs).toEqual({ text: 'hi', repeat: 2, shout: true });
    const before = sim.counters().modelRunsAdmitted;
    const r = await runOne({ client, modelId: 'echo', inputs });
    expect(r.httpStatus).toBe(200);
    expect(r.run).toMatchObject({ status: 'succeeded', outputs: { text: 'HI HI' }, credits: 1 });
    expect(sim.counters().modelRunsAdmitted).toBe(before + 1);
    expect(Object.keys(sim.counters().modelRunsByKey).some((k) => k.startsWith('resq:model:'))).toBe(true);
  });

  it('follows an async job (202, then reads) to its outputs and file reference', async () => {
    let admitted: string | null = null;
    const r = await runOne({ client, modelId: 'fold', inputs: { sequence: 'MKVL' }, onAdmitted: (run, status) => (admitted = `${status} ${run.status}`) });
    expect(admitted).toBe('202 running');
    expect(r.run.status).toBe('succeeded');
    expect(r.files).toEqual([expect.objectContaining({ role: 'structure', name: 'fold.pdb', tool: 'fold' })]);
  });

  it('forces a background job for a fast model with mode async', async () => {
    let status = 0;
    const r = await runOne({ client, modelId: 'echo', inputs: { text: 'x' }, mode: 'async', onAdmitted: (_, s) => (status = s) });
    expect(status).toBe(202);
    expect(r.run.outputs).toEqual({ text: 'x' });
  });

  it('keeps the error of a failing job', async () => {
    const r = await runOne({ client, modelId: 'descriptors', inputs: { smiles: 'INVALID' } });
    expect(r.run).toMatchObject({ status: 'failed', error: "could not parse SMILES 'INVALID'", outputs: null });
  });

  it('refuses bad inputs before sending anything, naming flag, input and reason', async () => {
    const d = await client.describeModel('echo');
    const before = sim.counters().requestsByRoute['POST /models/:id/runs'];
    let err: unknown;
    try {
      prepareInputs(d, 'echo', '{"repeat": "2", "bogus": 1}', ['shout=maybe', 'broken']);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message.split('\n')).toEqual([
      expect.stringMatching(/^--inputs: bogus: not an input of model echo/),
      '--input: shout: expected a boolean (true/false/1/0/yes/no), got "maybe"',
      '--input: expected name=value, got "broken"',
      'inputs: text: required input missing (string)',
      'inputs: repeat: expected an integer, got a string',
    ]);
    expect(() => prepareInputs(d, 'echo', '[1]')).toThrow('--inputs: expected a JSON object of inputs by name');
    expect(() => prepareInputs(d, 'echo', '{x')).toThrow(/--inputs: invalid JSON/);
    expect(sim.counters().requestsByRoute['POST /models/:id/runs']).toBe(before);
  });
});
