import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { loadPipeline } from '../../src/pipeline/index.js';

/** A temp folder holding the given files; returns its path. */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'resq-pipe-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

async function problemsOf(path: string): Promise<string[]> {
  try {
    await loadPipeline(path);
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return (err as InputError).message.split('\n');
  }
  throw new Error('did not throw');
}

const questions = 'id,question\n1,Why?\n';

describe('loadPipeline', () => {
  it('resolves paths against the pipeline file and loads the policy file', async () => {
    const dir = folder({
      'pipes/run.yaml': [
        'name: nightly',
        'questions: ../data/q.csv',
        'concurrency: 16',
        'policy: policies/p.yaml',
        'download:',
        '  concurrency: 2',
        '  out: ../out',
        'service: https://agent.example.com/api/v1/',
        'follow: poll',
      ].join('\n'),
      'pipes/policies/p.yaml': 'request_quality_image: approve\n',
      'data/q.csv': questions,
    });
    expect(await loadPipeline(join(dir, 'pipes/run.yaml'))).toEqual({
      file: join(dir, 'pipes/run.yaml'),
      name: 'nightly',
      questions: join(dir, 'data/q.csv'),
      concurrency: 16,
      policy: { request_quality_image: 'approve' },
      download: { enabled: true, concurrency: 2, out: join(dir, 'out') },
      service: { kind: 'url', baseUrl: 'https://agent.example.com/api/v1' },
      follow: 'poll',
      cancelRoute: null,
    });
  });

  it('fills in nulls and defaults for a minimal pipeline, from a relative path', async () => {
    const dir = folder({ 'p.json': '{"questions": "q.jsonl"}', 'q.jsonl': '{"question":"Why?"}\n' });
    const path = relative(process.cwd(), join(dir, 'p.json'));
    expect(path.startsWith('/')).toBe(false);
    expect(await loadPipeline(path)).toEqual({
      file: resolve(path),
      name: null,
      questions: join(dir, 'q.jsonl'),
      concurrency: null,
      policy: null,
      download: { enabled: true, concurrency: null, out: null },
      service: null,
      follow: null,
      cancelRoute: null,
    });
  });

  it('reads an inline policy, sim service and download: false', async () => {
    const dir = folder({
      'p.yaml': 'questions: q.csv\nservice: sim\ndownload: false\npolicy:\n  confirm_scope:\n    approve_max_cost: 5\n',
      'q.csv': questions,
    });
    const p = await loadPipeline(join(dir, 'p.yaml'));
    expect(p.policy).toEqual({ confirm_scope: { approve_max_cost: 5, otherwise: 'hold' } });
    expect(p.service).toEqual({ kind: 'sim' });
    expect(p.download).toEqual({ enabled: false, concurrency: null, out: null });
  });

  it('resolves the scorers file of `score:` against the pipeline file, and names the line when it is not there', async () => {
    const dir = folder({ 'p.yaml': 'questions: q.csv\nscore: judge/scorers.yaml\n', 'q.csv': questions, 'judge/scorers.yaml': 'scorers: []\n', 'bad.yaml': 'questions: q.csv\nscore: nope.yaml\n' });
    expect((await loadPipeline(join(dir, 'p.yaml'))).score).toBe(join(dir, 'judge/scorers.yaml'));
    expect(await problemsOf(join(dir, 'bad.yaml'))).toEqual([`${join(dir, 'bad.yaml')}:2: score: no such file: ${join(dir, 'nope.yaml')}`]);
  });

  it('loads the demo pipeline of the repository', async () => {
    const p = await loadPipeline('pipelines/demo.yaml');
    expect(p).toMatchObject({ name: 'demo', service: { kind: 'sim' }, file: resolve('pipelines/demo.yaml') });
    expect(p.questions).toBe(resolve('pipelines/demo-questions.csv'));
    expect(p.policy?.confirm_scope?.approve_max_cost).toBeTypeOf('number');
  });

  it('names every key problem with its line', async () => {
    const dir = folder({
      'p.yaml': ['name: ""', 'questions: q.csv', 'concurrency: 0', 'folow: sse', 'download:', '  enabled: maybe', 'follow: push'].join('\n'),
      'q.csv': questions,
    });
    const path = join(dir, 'p.yaml');
    expect(await problemsOf(path)).toEqual([
      `${path}:1: name: must not be empty`,
      `${path}:3: concurrency: must be at least 1`,
      `${path}:6: download.enabled: must be a boolean, found a string`,
      `${path}:7: follow: must be "sse" or "poll"`,
      `${path}:4: folow: unknown key: did you mean \`follow\`?`,
    ]);
  });

  it('suggests the known key a mistyped one is closest to, and only a close one', async () => {
    const dir = folder({ 'p.yaml': 'questions: q.csv\nconcurrancy: 4\ndownload:\n  enabeld: true\nzzzzzz: 1\n', 'q.csv': questions });
    const path = join(dir, 'p.yaml');
    expect(await problemsOf(path)).toEqual([
      `${path}:4: download.enabeld: unknown key: did you mean \`enabled\`?`,
      `${path}:2: concurrancy: unknown key: did you mean \`concurrency\`?`,
      `${path}:5: zzzzzz: unknown key`,
    ]);
  });

  it('requires questions, and a question set that exists', async () => {
    const dir = folder({ 'a.yaml': 'name: x\n', 'b.yaml': 'questions: nowhere.csv\n' });
    expect(await problemsOf(join(dir, 'a.yaml'))).toEqual([`${join(dir, 'a.yaml')}:1: questions: missing`]);
    expect(await problemsOf(join(dir, 'b.yaml'))).toEqual([`${join(dir, 'b.yaml')}:1: questions: no such file: ${join(dir, 'nowhere.csv')}`]);
  });

  it('refuses any API key in the file, without echoing it', async () => {
    const dir = folder({
      'p.yaml': 'questions: q.csv\napi_key: sk-live-123\ndownload:\n  token: sk-live-456\npolicy:\n  key: sk-live-789\n',
      'q.csv': questions,
    });
    const path = join(dir, 'p.yaml');
    const problems = await problemsOf(path);
    const why = 'an API key is never read from a file: remove it and set RESQ_API_KEY in the environment';
    expect(problems).toEqual([`${path}:2: api_key: ${why}`, `${path}:4: download.token: ${why}`, `${path}:6: policy.key: ${why}`]);
    expect(problems.join('\n')).not.toContain('sk-live');
  });

  it('refuses a service URL that carries the key or the wrong path', async () => {
    const dir = folder({
      'a.yaml': 'questions: q.csv\nservice: https://u:sk-live-1@x.example/api/v1\n',
      'b.yaml': 'questions: q.csv\nservice: https://x.example/api\n',
      'q.csv': questions,
    });
    const a = await problemsOf(join(dir, 'a.yaml'));
    expect(a).toEqual([
      `${join(dir, 'a.yaml')}:2: service: the base URL must not contain a user name or password: the API key comes from RESQ_API_KEY`,
    ]);
    expect(await problemsOf(join(dir, 'b.yaml'))).toEqual([`${join(dir, 'b.yaml')}:2: service: the base URL must end in /api/v1 (its path is "/api")`]);
  });

  it('reports inline policy problems under policy., with lines', async () => {
    const dir = folder({
      'p.yaml': 'questions: q.csv\npolicy:\n  ask_choice:\n    otherwise: maybe\n  confrim_scope: {}\n',
      'q.csv': questions,
    });
    const path = join(dir, 'p.yaml');
    expect(await problemsOf(path)).toEqual([
      `${path}:4: policy.ask_choice.otherwise: must be "first" or "all" or "decline" or "hold"`,
      `${path}:5: policy.confrim_scope: unknown key`,
    ]);
  });

  it('reports policy file problems in the policy file, and a missing one in the pipeline', async () => {
    const dir = folder({
      'a.yaml': 'questions: q.csv\npolicy: bad.yaml\n',
      'bad.yaml': 'unknown: decline\n',
      'b.yaml': 'questions: q.csv\npolicy: gone.yaml\n',
      'c.yaml': 'questions: q.csv\npolicy: [hold]\n',
      'q.csv': questions,
    });
    expect(await problemsOf(join(dir, 'a.yaml'))).toEqual([
      `${join(dir, 'bad.yaml')}:1: unknown: must be "hold": an unknown tool's answer cannot be guessed, so it waits for a person`,
    ]);
    expect(await problemsOf(join(dir, 'b.yaml'))).toEqual([`${join(dir, 'b.yaml')}:2: policy: no such file: ${join(dir, 'gone.yaml')}`]);
    expect(await problemsOf(join(dir, 'c.yaml'))).toEqual([`${join(dir, 'c.yaml')}:2: policy: must be a policy file path or a mapping, found a list`]);
  });

  it('reports every late problem at once', async () => {
    const dir = folder({ 'p.yaml': 'questions: gone.csv\nservice: nowhere\npolicy: gone.yaml\n' });
    const path = join(dir, 'p.yaml');
    expect(await problemsOf(path)).toEqual([
      `${path}:1: questions: no such file: ${join(dir, 'gone.csv')}`,
      `${path}:2: service: must be "sim" or a base URL ending in /api/v1`,
      `${path}:3: policy: no such file: ${join(dir, 'gone.yaml')}`,
    ]);
  });

  it('refuses an empty file, a non-mapping, a syntax error and a missing file', async () => {
    const dir = folder({ 'e.yaml': '# nothing\n', 'l.yaml': '- questions: q.csv\n', 's.yaml': 'questions: [q.csv\n' });
    expect(await problemsOf(join(dir, 'e.yaml'))).toEqual([`${join(dir, 'e.yaml')}: empty: expected a mapping with at least \`questions\``]);
    expect(await problemsOf(join(dir, 'l.yaml'))).toEqual([`${join(dir, 'l.yaml')}:1: must be a mapping, found a list`]);
    expect((await problemsOf(join(dir, 's.yaml')))[0]).toMatch(new RegExp(`^${join(dir, 's.yaml')}:2: `));
    expect(await problemsOf(join(dir, 'none.yaml'))).toEqual([`${join(dir, 'none.yaml')}: cannot read: no such file`]);
  });
});
