/** How a CSV file is written, as far as the reader must know before parsing it. */
export interface CsvDialect {
  /** Bytes before the header: a UTF-8 BOM and Excel's `sep=` line. */
  skipBytes: number;
  /** Lines before the header (1 for a `sep=` line), so line numbers stay the editor's. */
  skipLines: number;
  /** The field delimiter: `,`, or what `sep=` or the header says. */
  delimiter: string;
  /** Whether a lone CR ends a line: the file's first line ends with one (old Mac files). */
  crEndsLines: boolean;
}

/** Bytes of the start of a file enough to sniff its dialect from. */
export const DIALECT_HEAD_BYTES = 64 * 1024;

/** Delimiters sniffed from a header, in order of preference. */
const SNIFFED = [',', ';', '\t'] as const;

const SEP_LINE = /^sep=([^\r\n"])(\r\n|\n|\r)/i;

/**
 * Reads the dialect of a CSV file from its first bytes (at least the header line, when
 * the file has one): a UTF-8 BOM is skipped; Excel's `sep=;` first line names the
 * delimiter and is skipped; otherwise the delimiter is the first of `,` `;` tab that the
 * header holds outside quotes (a comma when none), or `delimiter` when the file's name
 * says (a `.tsv` file: tab). Pure.
 */
export function sniffCsvDialect(head: Uint8Array, delimiterByName?: string): CsvDialect {
  const buf = Buffer.from(head.buffer, head.byteOffset, head.length);
  let skipBytes = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  let skipLines = 0;
  let delimiter: string | null = null;
  let text = buf.toString('latin1', skipBytes, Math.min(buf.length, skipBytes + DIALECT_HEAD_BYTES));
  const sep = SEP_LINE.exec(text);
  if (sep) {
    delimiter = sep[1]!;
    skipBytes += sep[0].length;
    skipLines = 1;
    text = text.slice(sep[0].length);
  }
  const header = firstLine(text);
  delimiter ??= delimiterByName ?? SNIFFED.find((d) => header.counts.has(d)) ?? ',';
  return { skipBytes, skipLines, delimiter, crEndsLines: header.end === '\r' };
}

/** The delimiters outside quotes on the first line, and how that line ends. */
function firstLine(text: string): { counts: Set<string>; end: string | null } {
  const counts = new Set<string>();
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c === '\n') return { counts, end: '\n' };
    else if (c === '\r') return { counts, end: text[i + 1] === '\n' ? '\r\n' : '\r' };
    else if (c === ',' || c === ';' || c === '\t') counts.add(c);
  }
  return { counts, end: null };
}
