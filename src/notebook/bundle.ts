import { escapeHtml } from '../text/escape-text.js';
/**
 * A MIME bundle: one output in several representations, as Jupyter's display_data carries
 * it. Binary images are base64 text.
 */
export interface MimeBundle {
  'text/html'?: string;
  'text/markdown'?: string;
  'text/plain'?: string;
  'image/svg+xml'?: string;
  'image/png'?: string;
  'image/jpeg'?: string;
}

/** A MIME type a bundle may hold. */
export type Mime = keyof MimeBundle;

/** What displays one representation: tslab's `display` fits (`import * as tslab from 'tslab'`). */
export interface DisplayLike {
  raw(contentType: string, data: string): unknown;
}

/**
 * The order `show` prefers: HTML first (tables, and images from files wrapped in `<img>`),
 * then the single-representation kinds, plain text last.
 */
export const MIME_PREFERENCE: readonly Mime[] = ['text/html', 'image/svg+xml', 'image/png', 'image/jpeg', 'text/markdown', 'text/plain'];

/** The representation `show` would send for a bundle, or null for an empty one. */
export function pickMime(bundle: MimeBundle): Mime | null {
  for (const m of MIME_PREFERENCE) if (bundle[m] !== undefined) return m;
  return null;
}

/**
 * Makes a `show` function over a display: it sends each bundle's preferred representation
 * (tslab shows one MIME type per output). Use it in a tslab cell:
 * `const show = showWith(tslab.display); show(table(rows));`
 */
export function showWith(display: DisplayLike): (what: MimeBundle | readonly MimeBundle[]) => void {
  return (what) => {
    const list: readonly MimeBundle[] = Array.isArray(what) ? what : [what as MimeBundle];
    for (const b of list) {
      const m = pickMime(b);
      if (m) display.raw(m, b[m] as string);
    }
  };
}

export { escapeHtml } from '../text/escape-text.js';

/** A bundle of Markdown text (with the same text as plain text). */
export function markdown(text: string): MimeBundle {
  return { 'text/markdown': text, 'text/plain': text };
}

/** A bundle of plain text, e.g. a message in place of something that cannot be shown. */
export function note(text: string): MimeBundle {
  return { 'text/plain': text, 'text/html': `<p><em>${escapeHtml(text)}</em></p>` };
}

