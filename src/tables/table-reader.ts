import { readCsv } from './csv-reader.js';
import { fileChunks, type HashTap } from './file-chunks.js';
import { type QuestionFormat, formatFromName, sniffFormat } from './format.js';
import { readJsonl } from './jsonl-reader.js';
import { escapeControls } from '../text/escape-text.js';
import { DuplicateIds } from './row.js';
import { type KeyedRow, type Notify, type ReadResult, type RowSchema, problem } from './row-schema.js';

/** Options of {@link readTable}. */
export interface TableReadOptions {
  /**
   * The file's format. When absent it comes from the extension (`.csv`, `.tsv`, `.jsonl`,
   * `.ndjson`), else from the first bytes; a file neither names is refused.
   * @default undefined
   */
  format?: QuestionFormat;
  /**
   * Report a row whose id an earlier row has. Off when the rows go where a unique key
   * finds duplicates (a batch load), which spares a set of every id in memory.
   * @default true
   */
  checkIds?: boolean;
  /** Fed every byte read, so one pass both reads and hashes (see {@link HashTap}). */
  tap?: HashTap;
  /** Hears each notice about the file once (a header read leniently: `Question` as `question`). */
  onNotice?: Notify;
}

/**
 * The one streaming reader of tabular input files (question sets, model inputs): streams
 * a CSV or JSONL file and yields each row as `schema` validates it, in file order, never
 * holding the file in memory. Every bad row yields one problem (`file` as given, 1-based
 * `line` where its record starts, `field`, `reason`, control characters escaped);
 * whole-file problems (empty, bad header, UTF-16, unknown format) carry no line or line 1.
 * A duplicate id is a problem on the later row, naming the line of the first.
 * @throws {InputError} (from the generator) when the file cannot be opened or is not a regular file.
 */
export function readTable<R extends KeyedRow>(
  path: string,
  schema: RowSchema<R>,
  opts: TableReadOptions = {},
): AsyncGenerator<ReadResult<R>> {
  // Returned, not delegated with yield*: each generator layer costs a promise a row.
  return readChunks(fileChunks(path, opts.tap), path, schema, opts.format, opts.checkIds ?? true, opts.onNotice);
}

/** As {@link readTable}, from chunks already at hand (`file` names them in problems). */
export function readChunks<R extends KeyedRow>(
  source: AsyncGenerator<Buffer>,
  file: string,
  schema: RowSchema<R>,
  format: QuestionFormat | undefined,
  checkIds: boolean,
  onNotice?: Notify,
): AsyncGenerator<ReadResult<R>> {
  const chosen = format ?? formatFromName(file);
  const ids = checkIds ? new DuplicateIds() : null;
  const notify = onNotice ? once(onNotice) : undefined;
  if (chosen === 'csv' || chosen === 'tsv') return readCsv(source, file, schema, ids, { delimiter: chosen === 'tsv' ? '\t' : undefined, notify });
  if (chosen === 'jsonl') return readJsonl(source, file, schema, ids, notify);
  return readSniffed(source, file, schema, ids, notify);
}

/** Passes each distinct notice on once (a JSONL file says the same of every line), control characters escaped. */
function once(notify: Notify): Notify {
  const said = new Set<string>();
  return (text) => {
    if (said.has(text)) return;
    said.add(text);
    notify(escapeControls(text));
  };
}

async function* readSniffed<R extends KeyedRow>(
  source: AsyncGenerator<Buffer>,
  file: string,
  schema: RowSchema<R>,
  ids: DuplicateIds | null,
  notify: Notify | undefined,
): AsyncGenerator<ReadResult<R>> {
  const first = await source.next();
  const head: Buffer = first.done ? Buffer.alloc(0) : first.value;
  const sniffed = sniffFormat(head, file);
  if ('reason' in sniffed) {
    await source.return(undefined);
    yield problem({ file, reason: sniffed.reason });
    return;
  }
  async function* replayed(): AsyncGenerator<Buffer> {
    if (!first.done) yield head;
    yield* source;
  }
  yield* sniffed.format === 'jsonl' ? readJsonl(replayed(), file, schema, ids, notify) : readCsv(replayed(), file, schema, ids, { notify });
}
