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
  return c.left > 0 ? `${printable(c.text)}… (${c.left.toLocaleString('en-US')} more characters)` : printable(c.text);
}

function verdictList(verdicts: ReadonlyMap<string, Verdict>, reasonMax: number): Markup {
  if (verdicts.size === 0) return html`<span class="m">—</span>`;
  return html`<ul>${[...verdicts.values()].map((v) => {
    const [cls, word] = v.pass === true ? ['p', 'passed'] : v.pass === false ? ['f', 'failed'] : ['u', 'unscored'];
    const reason = reasonMax > 0 && v.reason ? ` — ${line(cutText(v.reason, reasonMax).text)}` : '';
    return html`<li class="${cls}">${line(v.scorer)}: ${word}${reason}</li>`;
  })}</ul>`;
}

function filesCell(row: ItemAggregate, reportDir: string): Markup {
  if (row.files.length === 0) return html``;
  return html`<ul>${row.files.map((f) => {
    const name = line(f.name ?? f.role ?? f.id);
    return f.status === 'downloaded' && f.path ? html`<li><a href="${fileHref(reportDir, f.path)}">${name}</a></li>` : html`<li>${name} <span class="m">(${f.status})</span></li>`;
  })}</ul>`;
}

function failureLine(row: ItemAggregate, chars: number): Markup {
  const { item } = row;
  if (item.state !== 'failed' && item.state !== 'error') return html``;
  return html`<p class="f">${item.state}${item.errorCode ? ` (${line(item.errorCode)})` : ''}${item.error ? `: ${line(cutText(item.error, Math.max(chars, 40)).text)}` : ''}</p>`;
}

function answerCell(row: ItemAggregate, place: RowPlace, chars: number): Markup {
  const { item } = row;
  const failure = failureLine(row, chars);
  if (item.text === null) return failure.text !== '' ? failure : html`<span class="m">no answer (${item.state})</span>`;
  const c = cutText(item.text, chars);
  // Rendered safely: raw HTML escaped, links http(s)/mailto only, no images (web/markdown.ts).
  const body = new Markup(renderMarkdown(visibleControls(c.text)));
  if (c.left === 0) return html`${failure}${body}`;
  return html`${failure}${body}<p class="m">${c.left.toLocaleString('en-US')} characters left out: <a href="${servePage(place, item.id)}">the whole answer in resq serve</a></p>`;
}

/**
 * One item as a row of the report's items table, sized to about `allowance` bytes: the
 * question, expected answer and reasons cut to a share of it, the answer (Markdown, rendered
 * safely) to what is left, at most {@link ANSWER_MAX} characters. Every value is escaped.
 */
export function itemRow(row: ItemAggregate, verdicts: ReadonlyMap<string, Verdict>, place: RowPlace, allowance: number): string {
  const { item } = row;
  const expected = item.expected === null || item.expected === undefined ? null : typeof item.expected === 'string' ? item.expected : JSON.stringify(item.expected);
  const start = html`<tr id="i-${encodeURIComponent(item.id)}"><td>${line(item.id)}</td><td>${shown(item.question, clamp(allowance / 5, 24, 2000))}</td><td>${expected === null ? '' : shown(expected, clamp(allowance / 8, 16, 1000))}</td><td>`.text;
  const end = html`</td><td>${verdictList(verdicts, clamp(allowance / 10, 0, 300))}</td><td>${filesCell(row, place.reportDir)}</td></tr>\n`.text;
  // Markdown grows a little as HTML (paragraphs, escapes); the room a cut note takes is kept aside.
  const room = (allowance - Buffer.byteLength(start) - Buffer.byteLength(end) - 90 - place.serveUrl.length - place.batchName.length - item.id.length) / 1.25;
  return start + answerCell(row, place, clamp(room, 0, ANSWER_MAX)).text + end;
}
