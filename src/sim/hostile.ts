/**
 * Hostile content for the `@hostile` directive: what a compromised or careless service could
 * put in an answer, a pause, a file name or a file. Every payload that runs would set
 * `window.__resqPwned` (or its parent's) and open a dialog, so a test can see that none ran.
 */

/** Markup payloads: raw HTML, event handlers, script URLs. */
export const HOSTILE_SNIPPETS: readonly string[] = [
  `<script>window.__resqPwned='script';alert('script')</script>`,
  `<img src=x onerror="window.__resqPwned='onerror';alert('onerror')">`,
  `<svg onload="window.__resqPwned='svg-onload'"></svg>`,
  `<iframe src="javascript:window.__resqPwned='iframe'"></iframe>`,
];

/** The answer's Markdown: the snippets, plus links and an image whose targets would run script. */
export function hostileMarkdown(): string {
  return [
    '## Hostile content (simulated)',
    '',
    ...HOSTILE_SNIPPETS,
    '',
    `[a javascript link](javascript:window.__resqPwned='link';alert('link'))`,
    `[a data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)`,
    `![an image](javascript:window.__resqPwned='img-src')`,
    `<a href="javascript:window.__resqPwned='raw-a'">raw anchor</a>`,
    '[a fine link](https://example.org/paper)',
  ].join('\n');
}

/** A file name that is markup (no path separator, so it survives as one name). */
export const HOSTILE_FILE_NAME = `<img src=x onerror="window.__resqPwned='name';alert('name')">.md`;

/** An SVG document with a script and an event handler: harmless only when shown as <img>. */
export const HOSTILE_SVG =
  `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60" onload="parent.__resqPwned='svg-file-onload'">` +
  `<script>parent.__resqPwned='svg-file';window.__resqPwned='svg-file';alert('svg file')</script>` +
  `<rect width="120" height="60" fill="#e15759"/><text x="10" y="35" fill="#fff">hostile svg</text></svg>\n`;

/** An HTML page with a script: it must only ever be downloaded. */
export const HOSTILE_HTML = `<!doctype html><html><body><script>parent.__resqPwned='html-file';alert('html file')</script><p>hostile page</p></body></html>\n`;

/** A text padded (or cut) to exactly `chars` characters: a huge string a careless service may send. */
export function hugeText(s: string, chars: number): string {
  return s.length >= chars ? s.slice(0, chars) : s + ' lorem'.repeat(Math.ceil((chars - s.length) / 6)).slice(0, chars - s.length);
}

/** Each text of a pause's input (strings, steps, option labels) made `chars` characters long. */
export function hugeInput(input: Record<string, unknown>, chars: number): Record<string, unknown> {
  const big = (v: unknown): unknown =>
    typeof v === 'string' ? hugeText(v, chars) : Array.isArray(v) ? v.map(big) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'id' ? x : big(x)])) : v;
  return big(input) as Record<string, unknown>;
}

/** A value nested `levels` deep (`{"level": {"level": … "bottom"}}`), built without recursion. */
export function deepValue(levels: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < levels; i++) v = { level: v };
  return v;
}

/** A pause input's text with a payload after it. */
export function hostileText(s: string): string {
  return `${s} ${HOSTILE_SNIPPETS[1]}`;
}
