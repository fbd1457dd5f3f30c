import { describe, expect, it } from 'vitest';
import { peekHead } from '../../src/tables/peek-head.js';

async function* chunks(parts: string[], log: string[]): AsyncGenerator<Buffer> {
  try {
    for (const p of parts) yield Buffer.from(p);
  } finally {
    log.push('closed');
  }
}

async function all(gen: AsyncGenerator<Buffer>): Promise<string> {
  let s = '';
  for await (const c of gen) s += c.toString();
  return s;
}

describe('peekHead', () => {
  it('gathers at least the bytes asked for, then replays the whole stream', async () => {
    const log: string[] = [];
    const p = await peekHead(chunks(['ab', 'cd', 'ef', 'gh'], log), 3);
    expect(p.head.toString()).toBe('abcd');
    expect(await all(p.chunks)).toBe('abcdefgh');
    expect(log).toEqual(['closed']);
  });

  it('gives a short stream whole as its head', async () => {
    const p = await peekHead(chunks(['ab'], []), 100);
    expect(p.head.toString()).toBe('ab');
    expect(await all(p.chunks)).toBe('ab');
    const empty = await peekHead(chunks([], []), 4);
    expect(empty.head.length).toBe(0);
    expect(await all(empty.chunks)).toBe('');
  });

  it('releases the source when the reader stops early or cancels', async () => {
    const log: string[] = [];
    const p = await peekHead(chunks(['ab', 'cd', 'ef'], log), 1);
    for await (const _ of p.chunks) break;
    expect(log).toEqual(['closed']);
    const log2: string[] = [];
    const q = await peekHead(chunks(['ab', 'cd'], log2), 1);
    await q.cancel();
    expect(log2).toEqual(['closed']);
  });
});
