import { describe, expect, it } from 'vitest';
import { cutText, fileHref, itemRow, servePage, visibleControls } from '../../src/report/item-html.js';
import type { Verdict } from '../../src/score/types.js';
import type { ItemAggregate } from '../../src/store/port.js';

const place = { batchName: 'b 1', serveUrl: 'http://127.0.0.1:8642', reportDir: '/data/reports' };

function agg(over: Partial<ItemAggregate['item']> = {}, files: ItemAggregate['files'] = []): ItemAggregate {
  const item = {
    batchId: 'b', id: 'q1', seq: 0, line: 2, question: 'What is 6 × 7?', threadKey: null, meta: {}, expected: null, state: 'completed', step: 0, pendingKey: null, pendingAnswer: null,
    runId: 'r1', threadId: null, runStatus: 'completed', text: '**42**', error: null, errorCode: null, holdReason: null, startedAt: null, finishedAt: null, updatedAt: '', owner: null, leaseUntil: null, fence: 0, attempt: 0,
    ...over,
  } as ItemAggregate['item'];
  return { item, runIds: [], runTimes: [], decisions: [], files };
}
const v = (scorer: string, pass: boolean | null, reason: string): Verdict => ({ scorer, version: 'v', pass, score: null, reason, scoredAt: '', by: 'includes' });

describe('cutText', () => {
  it('keeps short text whole and counts what a cut leaves out, never splitting a surrogate pair', () => {
    expect(cutText('abc', 5)).toEqual({ text: 'abc', left: 0 });
    expect(cutText('abcdef', 4)).toEqual({ text: 'abcd', left: 2 });
    expect(cutText('a😀b', 2)).toEqual({ text: 'a', left: 3 });
    expect(cutText('abc', 0)).toEqual({ text: '', left: 3 });
  });
});

describe('links', () => {
  it('a file relative to the report, each part encoded so no scheme or markup survives', () => {
    expect(fileHref('/data/reports', '/data/reports/out/q1/table.csv')).toBe('out/q1/table.csv');
    expect(fileHref('/data/reports', '/data/out/q 1/javascript:x<b>.md')).toBe('../out/q%201/javascript%3Ax%3Cb%3E.md');
  });
  it("an item's page in resq serve, name and id encoded", () => {
    expect(servePage(place, 'a/b?c')).toBe('http://127.0.0.1:8642/b/b%201/i/a%2Fb%3Fc');
  });
});

describe('visibleControls', () => {
  it('shows controls and direction overrides as escapes, keeps line breaks and tabs', () => {
    expect(visibleControls('a\x1b[31mb\u202ec\n\td\x07')).toBe('a\\x1b[31mb\\u202ec\n\td\\x07');
  });
});

describe('itemRow', () => {
  it('a row: id, question, expected (an object as JSON), the answer as Markdown, a cell per scorer, files linked', () => {
    const files = [
      { id: 'f1', role: null, name: 'table.csv', path: '/data/reports/out/q1/table.csv', bytes: 1, sha256: null, status: 'downloaded', host: null },
      { id: 'f2', role: 'figure', name: null, path: null, bytes: null, sha256: null, status: 'expired', host: null },
    ] as ItemAggregate['files'];
    const row = itemRow(agg({ expected: { value: 42 } }, files), new Map([['exact', v('exact', false, 'said 41')]]), ['exact', 'mentions'], place, 10_000);
    expect(row).toBe(
      '<tr id="i-q1"><td>q1<td>What is 6 × 7?<td>{&quot;value&quot;:42}<td><p><strong>42</strong></p>\n<td class=f>✗ said 41<td><td><a href="out/q1/table.csv">table.csv</a> figure <span class=m>(expired)</span> \n',
    );
  });

  it('hostile values stay text: markup escaped, a javascript: link not a link, controls shown', () => {
    const row = itemRow(
      agg({ id: '"><script>x</script>', question: '<img src=x onerror=alert(1)>\x1b[2J', text: '[go](javascript:alert(1)) <script>alert(2)</script>', expected: '<b>' }),
      new Map([['s', v('s', null, '<iframe src=//x>')]]),
      ['s'],
      place,
      10_000,
    );
    expect(row).not.toMatch(/<(script|img|iframe|b)[\s>]/);
    expect(row).not.toContain('href="javascript');
    expect(row).toContain('<tr id="i-%22%3E%3Cscript%3Ex%3C%2Fscript%3E"><td>&quot;&gt;&lt;script&gt;x&lt;/script&gt;');
    expect(row).toContain('&lt;img src=x onerror=alert(1)&gt;\\x1b[2J');
    expect(row).toContain('<td class=u>? &lt;iframe src=//x&gt;');
  });

  it('a failed item says so with its code and message; one with no answer yet says its state', () => {
    expect(itemRow(agg({ state: 'failed', text: null, errorCode: 'agent_error', error: 'boom' }), new Map(), [], place, 5_000)).toContain('<p class=f>failed (agent_error): boom</p>');
    expect(itemRow(agg({ state: 'held', text: null }), new Map(), [], place, 5_000)).toContain('<span class=m>no answer (held)</span>');
  });

  it('little room: the answer cut to plain text with how much is left and a link to it in resq serve; the rest cut too', () => {
    const long = agg({ text: `# Title\n\n${'word '.repeat(2000)}`, question: 'q'.repeat(500) });
    const row = itemRow(long, new Map([['exact', v('exact', true, 'a long reason '.repeat(20))]]), ['exact'], place, 300);
    expect(Buffer.byteLength(row)).toBeLessThanOrEqual(300);
    expect(row).toMatch(/… <a href="http:\/\/127\.0\.0\.1:8642\/b\/b%201\/i\/q1">\+[\d,]+<\/a>/);
    expect(row).toMatch(/<td>q*… \(\+[\d,]+\)<td>/);
    expect(row).not.toContain('a long reason');
    expect(row).not.toContain('<h1>');
    expect(row).toContain('<td># Title word word');
    // Room enough, the whole answer as Markdown, up to 4,000 characters.
    const roomy = itemRow(long, new Map(), [], place, 1_000_000);
    expect(roomy).toContain('<h1>Title</h1>');
    expect(roomy).toContain('… <a href="http://127.0.0.1:8642/b/b%201/i/q1">+6,009</a>');
  });
});
