import { escapeHtml } from '../text/escape-text.js';

/** Markup made by {@link html} (or the page's own document): put in as it is, never escaped again. */
export class Markup {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

/** One value of a template as HTML: Markup as it is, arrays item by item, nothing for null/undefined/false, the rest escaped as text. */
function part(v: unknown): string {
  if (v instanceof Markup) return v.text;
  if (Array.isArray(v)) return v.map(part).join('');
  if (v === null || v === undefined || v === false) return '';
  return escapeHtml(String(v));
}

/**
 * HTML from a template whose values are escaped by default (text and attribute values in
 * double quotes alike): only Markup another `html` made goes in as markup, so a value from the
 * service or a user's file is always text.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += part(values[i]) + strings[i + 1]!;
  return new Markup(out);
}
