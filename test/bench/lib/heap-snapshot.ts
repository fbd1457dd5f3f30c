import { readFileSync } from 'node:fs';

/** What a V8 heap snapshot holds, summed by node type and by type/name (constructor or function). */
export interface HeapCensus {
  /** Node count by V8 node type (`closure`, `object`, `string`, …). */
  count: Map<string, number>;
  /** Self size (bytes) by V8 node type. */
  bytes: Map<string, number>;
  /** Count and self size by `type:name` (an object's constructor, a closure's function name). */
  byName: Map<string, { count: number; bytes: number }>;
  /** All nodes' self sizes, bytes. */
  totalBytes: number;
}

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Reads a `.heapsnapshot` file and counts its nodes by type and by constructor/function name. */
export function heapCensus(path: string): HeapCensus {
  const s = JSON.parse(readFileSync(path, 'utf8')) as Snapshot;
  const fields = s.snapshot.meta.node_fields;
  const types = s.snapshot.meta.node_types[0];
  const width = fields.length;
  const [iType, iName, iSize] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number];
  const census: HeapCensus = { count: new Map(), bytes: new Map(), byName: new Map(), totalBytes: 0 };
  for (let i = 0; i < s.nodes.length; i += width) {
    const type = types[s.nodes[i + iType]!]!;
    const size = s.nodes[i + iSize]!;
    census.count.set(type, (census.count.get(type) ?? 0) + 1);
    census.bytes.set(type, (census.bytes.get(type) ?? 0) + size);
    census.totalBytes += size;
    // Strings and numbers are named by their value: one bucket each.
    const name = type === 'string' || type === 'concatenated string' || type === 'sliced string' || type === 'number' ? '' : s.strings[s.nodes[i + iName]!]!;
    const key = `${type}:${name}`;
    const e = census.byName.get(key) ?? { count: 0, bytes: 0 };
    e.count += 1;
    e.bytes += size;
    census.byName.set(key, e);
  }
  return census;
}

/** Per run: (many − few) / runs of each entry, largest bytes first. */
export function perRunDiff(many: HeapCensus, few: HeapCensus, runs: number, top: number): { key: string; count: number; bytes: number }[] {
  const out: { key: string; count: number; bytes: number }[] = [];
  for (const [key, e] of many.byName) {
    const b = few.byName.get(key) ?? { count: 0, bytes: 0 };
    out.push({ key, count: (e.count - b.count) / runs, bytes: (e.bytes - b.bytes) / runs });
  }
  return out.sort((a, b) => b.bytes - a.bytes).slice(0, top);
}
