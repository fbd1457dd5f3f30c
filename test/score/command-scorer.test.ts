import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { judgementOfOutput, judgeWithCommand } from '../../src/score/command-scorer.js';
import { parseScorers } from '../../src/score/scorers-file.js';
import type { ScoreInput } from '../../src/score/judgement.js';

const dir = mkdtempSync(join(tmpdir(), 'resq-command-scorer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A scorer running the shell `script` (written to a file), with a timeout in seconds. */
function scorerOf(script: string, timeout = 10) {
  const path = join(dir, `judge-${Math.random().toString(36).slice(2)}.sh`);
  writeFileSync(path, `#!/bin/sh\n${script}\n`);
  chmodSync(path, 0o755);
  return parseScorers(`scorers: [{name: mine, kind: command, command: ${JSON.stringify(path)}, timeout_seconds: ${timeout}}]`, 's.yaml')[0]!;
}

const item: ScoreInput = { id: 'a1', question: 'What is 6 x 7?', expected: '42', text: 'It is 42.' };

describe('command scorer', () => {
  it('gives the program the item as JSON on stdin and takes its pass, score and reason, with no secret in its environment', async () => {
    const seen = join(dir, 'seen.json');
    const env = join(dir, 'env.txt');
    const s = scorerOf(`cat > ${seen}; env > ${env}; echo '{"pass": true, "score": 0.75, "reason": "close enough"}'`);
    process.env.RESQ_API_KEY = 'sk-secret-for-test';
    try {
      expect(await judgeWithCommand(s, item)).toEqual({ pass: true, score: 0.75, reason: 'close enough' });
    } finally {
      delete process.env.RESQ_API_KEY;
    }
    expect(JSON.parse(readFileSync(seen, 'utf8'))).toEqual({ scorer: 'mine', id: 'a1', question: 'What is 6 x 7?', expected: '42', answer: 'It is 42.', files: [] });
    const vars = readFileSync(env, 'utf8');
    expect(vars).toContain('RESQ_SCORER=mine');
    expect(vars).not.toContain('sk-secret-for-test');
  });

  it('a fail without a score scores 0', async () => {
    expect(await judgeWithCommand(scorerOf(`cat > /dev/null; echo '{"pass": false}'`), item)).toEqual({ pass: false, score: 0, reason: 'failed' });
  });

  it('leaves the item unscored, with why, when the program fails, hangs, or prints what it should not', async () => {
    expect(await judgeWithCommand(scorerOf('exit 3'), item)).toEqual({ pass: null, score: null, reason: 'the scorer exited with 3' });
    expect((await judgeWithCommand(scorerOf('sleep 30', 1), item)).reason).toBe('the scorer did not end in 1 s');
    expect((await judgeWithCommand(scorerOf(`echo '{"pass": "yes"}'`), item)).reason).toBe('the scorer printed pass must be true or false');
    expect((await judgeWithCommand(scorerOf(`echo '{"pass": true, "score": 1.5}'`), item)).reason).toBe('the scorer printed score must be from 0 to 1');
    expect((await judgeWithCommand(scorerOf('echo hello'), item)).reason).toBe('the scorer printed no JSON object');
    expect((await judgeWithCommand(scorerOf('head -c 70000 /dev/zero | tr "\\\\0" a'), item)).reason).toBe('the scorer printed more than 64 KB');
  });

  it('checks untrusted output: a non-finite score, a list, nothing', () => {
    expect(judgementOfOutput('{"pass": true, "score": 1e999}').pass).toBeNull();
    expect(judgementOfOutput('[true]').pass).toBeNull();
    expect(judgementOfOutput('  ').reason).toBe('the scorer printed nothing');
    expect(judgementOfOutput(`{"pass": true, "reason": "${'x'.repeat(600)}"}`).reason).toHaveLength(500);
  });
});
