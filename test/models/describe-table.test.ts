import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelDescriptionSchema, type ServiceClient } from '../../src/api/index.js';
import { formatDescription, formatTable } from '../../src/models/describe-table.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { simClient } from './support/helpers.js';

describe('formatDescription', () => {
  let sim: Sim;
  let client: ServiceClient;
  beforeAll(async () => {
    sim = await startSim();
    client = simClient(sim);
  });
  afterAll(async () => {
    await client.close();
    await sim.close();
  });

  it('shows the simulator description: inputs with defaults, outputs, and the fields the interface does not name', async () => {
    const d = await client.describeModel('fold');
    const text = formatDescription(d, 'fold');
    expect(text).toContain('model fold — Fold');
    expect(text).toContain(`page: ${sim.origin}/models/fold`);
    for (const extra of ['gpu: true', 'version: sim-1', 'tags: ["gpu","structure"]', 'object: model']) expect(text).toContain(extra);
    expect(text).toMatch(/name\s+type\s+required\s+default\s+description\n/);
    expect(text).toMatch(/recycles\s+integer\s+no\s+3\s+Recycling iterations/);
    expect(text).toMatch(/sequence\s+string\s+yes\s+Amino-acid/);
    expect(text).toMatch(/structure\s+file\s+Predicted structure/);
  });

  it('keeps unknown fields of inputs and outputs, in either list shape', () => {
    const d = ModelDescriptionSchema.parse({
      id: 'm',
      inputs: { size: { type: 'integer', required: true, minimum: 1, unit: 'px' }, label: { type: 'string', default: null } },
      outputs: [{ name: 'img', type: 'file', media_type: 'image/png' }],
      pricing: { credits: 2 },
    });
    const text = formatDescription(d, 'm');
    expect(text).toContain('pricing: {"credits":2}');
    expect(text).toMatch(/size\s+integer\s+yes\s+minimum=1 unit=px/);
    expect(text).toMatch(/label\s+string\s+no\s+null/);
    expect(text).toMatch(/img\s+file\s+media_type=image\/png/);
  });

  it('says when a model declares no inputs', () => {
    expect(formatDescription(ModelDescriptionSchema.parse({}), 'x')).toContain('inputs:\n  (none declared)');
  });
});

describe('formatTable', () => {
  it('pads columns and drops trailing columns nobody filled', () => {
    expect(formatTable(['a', 'bb', 'other'], [['xxx', 'y', ''], ['z', '', '']])).toBe('a    bb\nxxx  y\nz');
  });
});
