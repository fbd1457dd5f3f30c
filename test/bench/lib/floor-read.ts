// Child entry: the floor for ingest — read a question file with nothing but the parser
// (csv-parse for CSV, JSON.parse per line for JSONL), count the records, print the count.
//   npx tsx test/bench/lib/floor-read.ts FILE csv|jsonl
import { parse } from 'csv-parse';
import { createReadStream } from 'node:fs';

const [file, format] = process.argv.slice(2);
let records = 0;
if (format === 'csv') {
  const parser = createReadStream(file!, { highWaterMark: 256 * 1024 }).pipe(parse({ bom: true, relax_column_count: true }));
  for await (const record of parser) if ((record as string[]).length > 0) records++;
} else {
  let rest = '';
  for await (const chunk of createReadStream(file!, { encoding: 'utf8', highWaterMark: 256 * 1024 })) {
    const lines = (rest + (chunk as string)).split('\n');
    rest = lines.pop()!;
    for (const line of lines) if (line && JSON.parse(line)) records++;
  }
  if (rest && JSON.parse(rest)) records++;
}
process.stdout.write(`${JSON.stringify({ records })}\n`);
