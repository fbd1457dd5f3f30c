import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { STREAM_SHARD_SIZE, StreamPools } from '../../src/api/stream-pools.js';

let pools: StreamPools | null = null;
afterEach(async () => {
  await pools?.close();
  pools = null;
});

function make(max: number): { pools: StreamPools; sizes: number[] } {
  const sizes: number[] = [];
  pools = new StreamPools((connections) => {
    sizes.push(connections);
    return new Agent({ connections });
  }, max);
  return { pools, sizes };
}

describe('StreamPools', () => {
  it('opens a new shard only when every shard is full, each of at most STREAM_SHARD_SIZE connections', () => {
    const { pools, sizes } = make(10_000);
    const held = Array.from({ length: STREAM_SHARD_SIZE * 2 + 1 }, () => pools.acquire());
    expect(pools.shards).toBe(3);
    expect(sizes).toEqual([STREAM_SHARD_SIZE, STREAM_SHARD_SIZE, STREAM_SHARD_SIZE]);
    // A stream that ends frees its slot in its own shard; the next one goes to the least busy shard.
    held[0]!.release();
    held[0]!.release(); // twice is once
    const next = pools.acquire();
    expect(next.dispatcher).toBe(held[held.length - 1]!.dispatcher);
    expect(pools.shards).toBe(3);
  });

  it('never opens more shards than the client\'s connections allow; streams beyond wait in the least busy shard', () => {
    const { pools, sizes } = make(100);
    for (let i = 0; i < 300; i++) pools.acquire();
    expect(pools.shards).toBe(2);
    expect(sizes.every((n) => n <= STREAM_SHARD_SIZE)).toBe(true);
  });
});
