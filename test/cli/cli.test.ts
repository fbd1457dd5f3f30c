// The parser's help and hints: every command, positional and option described; --version at the
// top only; one way to ask for JSONL; "did you mean" for a mistyped option or command.
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../support/in-process-cli.js';

const wide = { columns: 200 };

async function help(words: string[]): Promise<string> {
  const r = await runInProcess([...words, '--help'], {}, wide);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

/** The command words a help text lists under "Commands:" (`resq files pull [batch]` → `pull`). */
function commandsOf(text: string, prefix: string[]): string[] {
  const section = text.split(/\n(?=\S)/).find((s) => s.startsWith('Commands:')) ?? '';
  const words = new RegExp(`^  resq ${prefix.map((w) => `${w} `).join('')}(\\S+)`);
  return section
    .split('\n')
    .map((l) => words.exec(l)?.[1])
    .filter((w): w is string => w !== undefined);
}

/** Each entry of the help's Positionals and Options sections, with what is written after it. */
function entriesOf(text: string): { name: string; description: string }[] {
  const out: { name: string; description: string }[] = [];
  for (const section of text.split(/\n(?=\S)/)) {
    if (!/^(Positionals|Options):/.test(section)) continue;
    for (const line of section.split('\n').slice(1)) {
      const m = /^ {2}(?:-\w, )?\s*(--?[\w-]+|[\w-]+)(.*)$/.exec(line);
      if (m) out.push({ name: m[1]!, description: m[2]!.replace(/\[[^\]]*\]/g, '').trim() });
    }
  }
  return out;
}

/** Every command path: [], ['run'], …, ['files', 'pull'], … */
async function everyCommand(): Promise<string[][]> {
  const paths: string[][] = [[]];
  for (let i = 0; i < paths.length; i++) {
    const text = await help(paths[i]!);
    for (const w of commandsOf(text, paths[i]!)) paths.push([...paths[i]!, w]);
  }
  return paths;
}

describe('help', () => {
  it('describes every command, positional and option', async () => {
    const paths = await everyCommand();
    expect(paths.map((p) => p.join(' '))).toEqual(expect.arrayContaining(['show', 'export', 'files pull', 'models batch', 'threads show']));
    const bare: string[] = [];
    for (const p of paths) {
      const text = await help(p);
      for (const e of entriesOf(text)) if (!e.description) bare.push(`resq ${p.join(' ')} ${e.name}`.replace(/\s+/g, ' '));
      if (p.length) {
        const parent = await help(p.slice(0, -1));
        const line = parent.split('\n').find((l) => l.startsWith(`  resq ${p.join(' ')}`)) ?? '';
        if (!/\S\s{2,}\S/.test(line.trim())) bare.push(`resq ${p.join(' ')} (the command)`);
      }
    }
    expect(bare).toEqual([]);
  });

  it("names show's positionals and export's --format", async () => {
    const show = entriesOf(await help(['show']));
    expect(show.find((e) => e.name === 'batch')?.description).toMatch(/batch/);
    expect(show.find((e) => e.name === 'item')?.description).toMatch(/item id/);
    expect(entriesOf(await help(['export'])).find((e) => e.name === '--format')?.description).toMatch(/csv/i);
  });

  it('lists --version at the top only, and answers it there', async () => {
    expect(await help([])).toMatch(/--version\s+print the version/);
    for (const p of [['run'], ['show'], ['files', 'pull'], ['models', 'batch']]) expect(await help(p)).not.toMatch(/--version/);
    const v = await runInProcess(['--version']);
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('says how a note is recorded: with any answer, not only a choice', async () => {
    const note = entriesOf(await help(['answer'])).find((e) => e.name === '--note');
    expect(note?.description).toMatch(/--approve/);
    expect(note?.description).toMatch(/--decline/);
  });

  it('offers one way to ask for JSONL: --json (compare --format is a hidden alias)', async () => {
    const text = await help(['compare']);
    expect(text).toMatch(/--json/);
    expect(text).not.toMatch(/--format/);
  });
});

describe('did you mean', () => {
  it('a mistyped option', async () => {
    const r = await runInProcess(['run', 'q.csv', '--concurency', '3'], {}, wide);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option --concurency: did you mean --concurrency\?/);
  });

  it('a mistyped option of a sub-command', async () => {
    const r = await runInProcess(['files', 'pull', '--simm'], {}, wide);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--simm: did you mean --sim\?/);
  });

  it('an option nothing is close to is named without a guess', async () => {
    const r = await runInProcess(['status', '--zzzzzzzz'], {}, wide);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option --zzzzzzzz/);
    expect(r.stderr).not.toMatch(/did you mean/);
  });

  it('a mistyped command', async () => {
    const r = await runInProcess(['stauts'], {}, wide);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command "stauts"; did you mean: resq status$/m);
    expect(r.stderr.endsWith('\nthe commands and options: resq --help\n')).toBe(true);
    const sub = await runInProcess(['files', 'pul'], {}, wide);
    expect(sub.stderr).toMatch(/did you mean: resq files pull$/m);
  });
});
