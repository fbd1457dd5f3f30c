import { relative, sep } from 'node:path';
import type { Verdict } from '../score/types.js';
import type { ItemAggregate } from '../store/port.js';
import { escapeControls } from '../text/escape-text.js';
import { printable } from '../text/printable.js';
import { html, Markup } from '../web/html.js';
import { renderMarkdown } from '../web/markdown.js';
import { line } from './render-head.js';

/** Where an item's row links to: its page in `resq serve`, and its files from the report's folder. */
export interface RowPlace {
  batchName: string;
  /** The address `resq serve` answers on (http or https), no trailing slash. */
  serveUrl: string;
  /** The folder the report is written in: file links are relative to it. */
  reportDir: string;
}

/** Most characters of an answer a report shows, however much room there is. */
export const ANSWER_MAX = 4000;

/** `text` cut to at most `n` characters (never inside a surrogate pair), and how many were left out. */
export function cutText(text: string, n: number): { text: string; left: number } {
  if (text.length <= n) return { text, left: 0 };
  let end = Math.max(0, n);
  if (end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
  return { text: text.slice(0, end), left: text.length - end };
}

// Controls other than line breaks and tabs, and the direction overrides that reorder what a reader sees.
const HIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Markdown source with its hidden characters made visible (`\x07`, `\u202e`), its layout kept. */
export function visibleControls(text: string): string {
  return text.replace(HIDDEN, escapeControls);
}

const clamp = (x: number, lo: number, hi: number): number => Math.max(lo, Math.min(hi, Math.floor(x)));

/** A link to one item's page in `resq serve`. */
export function servePage(place: RowPlace, id: string): string {
  return `${place.serveUrl}/b/${encodeURIComponent(place.batchName)}/i/${encodeURIComponent(id)}`;
}

/** A file's path as a link relative to the report's folder, each part encoded (no scheme can survive). */
export function fileHref(reportDir: string, path: string): string {
  return relative(reportDir, path).split(sep).map(encodeURIComponent).join('/');
}

function shown(s: string, n: number): string {
  const c = cutText(s, n);
  return c.left > 0 ? `${printable(c.text)}… (+${c.left.toLocaleString('en-US')})` : printable(c.text);
}

/** One scorer's cell: ✓ passed, ✗ failed, ? unscored (a colour class each), then the reason cut to `reasonMax`; empty with no verdict. */
function verdictCell(v: Verdict | undefined, reasonMax: number): Markup {
  if (!v) return html`<td>`;
  const [cls, mark] = v.pass === true ? ['p', '✓'] : v.pass === false ? ['f', '✗'] : ['u', '?'];
  const reason = reasonMax > 0 && v.reason ? ` ${line(cutText(v.reason, reasonMax).text)}` : '';
  return html`<td class=${cls}>${mark}${reason}`;
}

function filesCell(row: ItemAggregate, reportDir: string): Markup {
  return html`${row.files.map((f) => {
    const name = line(f.name ?? f.role ?? f.id);
    return f.status === 'downloaded' && f.path ? html`<a href="${fileHref(reportDir, f.path)}">${name}</a> ` : html`${name} <span class=m>(${f.status})</span> `;
  })}`;
}

function failureLine(item: ItemAggregate['item'], chars: number): Markup {
  if (item.state !== 'failed' && item.state !== 'error') return html``;
  return html`<p class=f>${item.state}${item.errorCode ? ` (${line(item.errorCode)})` : ''}${item.error ? `: ${line(cutText(item.error, Math.max(chars, 40)).text)}` : ''}</p>`;
}

/** Below this many characters of room an answer is shown as plain text: Markdown's markup would take the room. */
const MARKDOWN_ROOM = 160;

function answerCell(row: ItemAggregate, place: RowPlace, chars: number): Markup {
  const { item } = row;
  const failure = failureLine(item, chars);
  if (item.text === null) return failure.text !== '' ? failure : html`<span class=m>no answer (${item.state})</span>`;
  const c = cutText(item.text, chars);
  // Rendered safely: raw HTML escaped, links http(s)/mailto only, no images (web/markdown.ts).
  const body = chars >= MARKDOWN_ROOM || c.left === 0 ? new Markup(renderMarkdown(visibleControls(c.text))) : html`${line(c.text.replace(/\s+/g, ' '))}`;
  if (c.left === 0) return html`${failure}${body}`;
  return html`${failure}${body}… <a href="${servePage(place, item.id)}">+${c.left.toLocaleString('en-US')}</a>`;
}

/** Characters of each text a row shows (the answer's may be less: Markdown grows as HTML). */
interface Shares {
  question: number;
  expected: number;
  answer: number;
  reason: number;
}

function rowWith(row: ItemAggregate, verdicts: ReadonlyMap<string, Verdict>, scorers: readonly string[], place: RowPlace, n: Shares): string {
  const { item } = row;
  const expected = item.expected === null || item.expected === undefined ? null : typeof item.expected === 'string' ? item.expected : JSON.stringify(item.expected);
  return html`<tr id="i-${encodeURIComponent(item.id)}"><td>${line(item.id)}<td>${shown(item.question, n.question)}<td>${expected === null ? '' : shown(expected, n.expected)}<td>${answerCell(row, place, n.answer)}${scorers.map((name) => verdictCell(verdicts.get(name), n.reason))}<td>${filesCell(row, place.reportDir)}\n`.text;
}

/** Below this many bytes a row gives no verdict's reason: the marks (✓ ✗ ?) say enough. */
const REASON_ROOM = 600;

/**
 * One item as a row of the report's items table (optional end tags left out), sized to about
 * `allowance` bytes: what the row needs without its texts is measured first, then the room
 * left is shared out — a part to the question and the expected answer, the rest to the
 * answer (Markdown, rendered safely), at most {@link ANSWER_MAX} characters. A cut text says
 * how many characters are left out; a cut answer links to the item's page in `resq serve`.
 * One cell per scorer of `scorers`. Every value is escaped.
 */
export function itemRow(row: ItemAggregate, verdicts: ReadonlyMap<string, Verdict>, scorers: readonly string[], place: RowPlace, allowance: number): string {
  const reason = allowance < REASON_ROOM ? 0 : clamp(allowance / 12, 0, 300);
  const bare = Buffer.byteLength(rowWith(row, verdicts, scorers, place, { question: 0, expected: 0, answer: 0, reason }));
  const free = Math.max(0, allowance - bare);
  const question = clamp(free * 0.3, 0, 2000);
  const expected = clamp(free * 0.15, 0, 1000);
  const rest = free - Math.min(question, row.item.question.length) - Math.min(expected, JSON.stringify(row.item.expected ?? '').length);
  return rowWith(row, verdicts, scorers, place, { question, expected, answer: clamp(rest / 1.2, 0, ANSWER_MAX), reason });
}
