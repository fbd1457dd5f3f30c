import { describe, expect, it } from 'vitest';
import { benchArgs, scenarioArgs } from '../bench/lib/args.js';

describe('npm run bench: the flags each scenario gets', () => {
  it('hands a scenario every flag but the runner\'s --only and --json (with their values)', () => {
    const argv = ['--only', 'floor,resume-10k', '--rounds', '5', '--json', '/tmp/b.json', '--config', '4000,400,500', '--quick'];
    expect(scenarioArgs(argv)).toEqual(['--rounds', '5', '--config', '4000,400,500', '--quick']);
    // What the floor scenario then reads.
    const got = benchArgs(scenarioArgs(argv));
    expect([got.get('rounds', '3'), got.get('config', ''), got.quick]).toEqual(['5', '4000,400,500', true]);
  });

  it('keeps a value that merely looks like a runner flag\'s name', () => {
    expect(scenarioArgs(['--mix', 'json', '--verbose'])).toEqual(['--mix', 'json', '--verbose']);
  });
});
