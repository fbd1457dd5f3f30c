import { describe, expect, it } from 'vitest';
import { pairById } from '../../src/read/pair-by-id.js';

/** A stream of ids, each marked with its side. */
async function* idsOf(ids: string[], side: string): AsyncGenerator<{ id: string; side: string }> {
  for (const id of ids) yield { id, side };
}

async function pairs(a: string[], b: string[]): Promise<string[]> {
  const out: string[] = [];
  for await (const [x, y] of pairById(idsOf(a, 'a'), idsOf(b, 'b'))) out.push(`${x.side}${x.id}=${y.side}${y.id}`);
  return out;
}

describe('pairById', () => {
  it('pairs the same order as it reads, and other orders as partners come by; unpartnered left out', async () => {
    expect(await pairs(['1', '2', '3'], ['1', '2', '3'])).toEqual(['a1=b1', 'a2=b2', 'a3=b3']);
    expect((await pairs(['1', '2', '3', 'x'], ['3', '2', '1', 'y'])).sort()).toEqual(['a1=b1', 'a2=b2', 'a3=b3']);
    expect(await pairs(['1', '2'], ['2'])).toEqual(['a2=b2']);
    expect(await pairs([], ['1'])).toEqual([]);
  });

  it('holds nothing when both come in the same order: each pair is out before the next is read', async () => {
    let read = 0;
    let behind = 0;
    async function* counted(ids: string[]): AsyncGenerator<{ id: string }> {
      for (const id of ids) {
        read++;
        yield { id };
      }
    }
    const ids = Array.from({ length: 1000 }, (_, i) => `i${i}`);
    let paired = 0;
    for await (const _ of pairById(counted(ids), counted(ids))) {
      paired++;
      behind = Math.max(behind, read - 2 * paired);
    }
    expect(paired).toBe(1000);
    expect(behind).toBe(0);
  });

  it('stopping early ends both streams', async () => {
    const ended: string[] = [];
    async function* endless(side: string): AsyncGenerator<{ id: string }> {
      try {
        for (let i = 0; ; i++) yield { id: String(i) };
      } finally {
        ended.push(side);
      }
    }
    for await (const [x] of pairById(endless('a'), endless('b'))) if (x.id === '3') break;
    expect(ended.sort()).toEqual(['a', 'b']);
  });
});
