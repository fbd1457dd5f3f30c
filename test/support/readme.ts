import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const README = join(resolve(import.meta.dirname, '../..'), 'README.md');

/** The first ```ts block of the README's "As a library" section: the example users copy. */
export function libraryExample(): string {
  const text = readFileSync(README, 'utf8');
  const section = text.slice(text.indexOf('\n## As a library'));
  const block = /\n```ts\n([\s\S]*?)\n```/.exec(section.slice(0, section.indexOf('\n## ', 1)));
  if (!block) throw new Error('README.md: no ```ts block under "## As a library"');
  return `${block[1]}\n`;
}

/** A fenced block of the README: its language, text, the section it is in, and its `<!-- readme-test: … -->` note. */
export interface ReadmeBlock {
  section: string;
  lang: string;
  body: string;
  /** What the comment right before the block says for the README test (`not run here: …`, `file NAME`, `postgres`), or null. */
  note: string | null;
  /** Its first line's number in README.md. */
  line: number;
}

/** Every fenced block of the README, in order. */
export function readmeBlocks(): ReadmeBlock[] {
  const lines = readFileSync(README, 'utf8').split('\n');
  const out: ReadmeBlock[] = [];
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.startsWith('## ')) section = l.slice(3);
    const fence = /^```(\w*)$/.exec(l);
    if (!fence) continue;
    let end = i + 1;
    while (end < lines.length && lines[end] !== '```') end++;
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const note = before >= 0 ? (/^<!-- readme-test: (.*) -->$/.exec(lines[before]!)?.[1] ?? null) : null;
    out.push({ section, lang: fence[1]!, body: lines.slice(i + 1, end).join('\n'), note, line: i + 1 });
    i = end;
  }
  return out;
}

/**
 * A shell block's commands, one per entry: continuation lines joined, the trailing comment
 * taken off (quotes respected) and kept apart (it may say `exit N`).
 */
export function commandsOf(body: string): { command: string; comment: string }[] {
  const joined = body.replace(/\\\n\s*/g, '');
  const out: { command: string; comment: string }[] = [];
  for (const line of joined.split('\n')) {
    let quote: string | null = null;
    let cut = line.length;
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if (quote) {
        if (c === quote) quote = null;
      } else if (c === "'" || c === '"') quote = c;
      else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) {
        cut = i;
        break;
      }
    }
    const command = line.slice(0, cut).trim();
    if (command) out.push({ command, comment: line.slice(cut + 1).trim() });
  }
  return out;
}
