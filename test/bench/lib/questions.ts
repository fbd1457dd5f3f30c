import { createWriteStream, writeFileSync } from 'node:fs';
import { once } from 'node:events';

/** Writes a CSV question set (`id,question`) of `n` rows made by `question(i)`. */
export function writeQuestions(path: string, n: number, question: (i: number) => string): void {
  const lines = ['id,question'];
  for (let i = 0; i < n; i++) lines.push(`q${i},${question(i)}`);
  writeFileSync(path, `${lines.join('\n')}\n`);
}

/** Writes a large question set (CSV or JSONL) streamed, with a meta column, for ingest benchmarks. */
export async function writeLargeSet(path: string, n: number, format: 'csv' | 'jsonl'): Promise<void> {
  const out = createWriteStream(path);
  const write = async (s: string): Promise<void> => {
    if (!out.write(s)) await once(out, 'drain');
  };
  if (format === 'csv') await write('id,question,topic\n');
  let buf = '';
  for (let i = 0; i < n; i++) {
    const question = `What is known about protein ${i} and its role in pathway ${i % 997}?`;
    const topic = `topic-${i % 50}`;
    buf += format === 'csv' ? `row-${i},${question},${topic}\n` : `${JSON.stringify({ id: `row-${i}`, question, topic })}\n`;
    if (buf.length > 1 << 20) {
      await write(buf);
      buf = '';
    }
  }
  await write(buf);
  out.end();
  await once(out, 'finish');
}

/** Writes a large file of model inputs (CSV or JSONL: id, smiles, n, scale, meta.topic) streamed, for ingest benchmarks. */
export async function writeLargeModelInputs(path: string, n: number, format: 'csv' | 'jsonl'): Promise<void> {
  const out = createWriteStream(path);
  const write = async (s: string): Promise<void> => {
    if (!out.write(s)) await once(out, 'drain');
  };
  if (format === 'csv') await write('id,smiles,n,scale,meta.topic\n');
  let buf = '';
  for (let i = 0; i < n; i++) {
    const smiles = `CC(C)C${'C'.repeat(i % 7)}O${i}`;
    const scale = (i % 1000) / 8;
    const topic = `topic-${i % 50}`;
    buf += format === 'csv'
      ? `m-${i},${smiles},${i % 97},${scale},${topic}\n`
      : `${JSON.stringify({ id: `m-${i}`, smiles, n: i % 97, scale, meta: { topic } })}\n`;
    if (buf.length > 1 << 20) {
      await write(buf);
      buf = '';
    }
  }
  await write(buf);
  out.end();
  await once(out, 'finish');
}
