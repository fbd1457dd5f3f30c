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
