import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { packageRoot } from '../package-root.js';
import { ITEM_STATES, STATE_COLORS } from '../store/item-states.js';
import type { Hono } from 'hono';
import type { WebEnv } from './write-routes.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Where the page's files are: src/web/static in a checkout, dist/web/static in the package (whether the code runs from there or from a bundle). */
export function staticDir(): string {
  const root = packageRoot();
  const sources = join(root, 'src', 'web', 'static');
  return existsSync(sources) ? sources : join(root, 'dist', 'web', 'static');
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

/** The page's files, read once: URL path (/static/…) → type and bytes. */
export function loadStatic(dir = staticDir()): Map<string, { type: string; body: Buffer }> {
  const out = new Map<string, { type: string; body: Buffer }>();
  for (const file of walk(dir)) {
    const type = TYPES[extname(file)];
    if (!type) continue;
    out.set(`/static/${relative(dir, file).split(sep).join('/')}`, { type, body: readFileSync(file) });
  }
  out.set('/static/js/states.js', { type: 'text/javascript; charset=utf-8', body: Buffer.from(statesModule()) });
  out.set('/static/states.css', { type: 'text/css; charset=utf-8', body: Buffer.from(statesCss()) });
  return out;
}

/**
 * The item states and their colours as the page's module: written from the library's one list
 * (store/item-states.ts), so the page never keeps a list of its own.
 */
export function statesModule(): string {
  return `// Made by the server from the library's list of item states (src/store/item-states.ts).
export const ITEM_STATES = ${JSON.stringify(ITEM_STATES)};
export const STATE_COLORS = ${JSON.stringify(STATE_COLORS)};
`;
}

/** The state chips' colours as a style sheet (the page's HTML carries no style attribute), from the same list. */
export function statesCss(): string {
  return Object.entries(STATE_COLORS).map(([s, c]) => `.chip.s-${s} { border-color: ${c}; }`).join('\n') + '\n';
}

/** Paths of the page itself (one document; its script shows the view the path names). */
const PAGE_PATHS = ['/', '/b/*', '/compare'];

/** Serves the page's document and its scripts and styles (shipped in the package: no CDN, nothing built at install). */
export function staticRoutes(app: Hono<WebEnv>, files = loadStatic()): void {
  const index = files.get('/static/index.html');
  if (!index) throw new Error(`the page's files are missing from ${staticDir()}`);
  for (const p of PAGE_PATHS) app.get(p, () => new Response(new Uint8Array(index.body), { headers: { 'Content-Type': index.type, 'Cache-Control': 'no-store' } }));
  app.get('/favicon.ico', () => new Response(null, { status: 204 }));
  app.get('/static/*', (c) => {
    const f = files.get(new URL(c.req.url).pathname);
    if (!f) return c.text('not found\n', 404);
    return new Response(new Uint8Array(f.body), { headers: { 'Content-Type': f.type, 'Cache-Control': 'no-cache' } });
  });
}
