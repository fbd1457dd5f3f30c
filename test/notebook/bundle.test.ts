import { describe, expect, it } from 'vitest';
import { escapeHtml, markdown, note, pickMime, showWith } from '../../src/notebook/bundle.js';

describe('notebook bundles', () => {
  it('show sends the preferred representation of each bundle, in order', () => {
    const sent: [string, string][] = [];
    const show = showWith({ raw: (m, d) => sent.push([m, d]) });
    show([{ 'text/plain': 'p', 'text/html': '<b>h</b>' }, { 'image/png': 'AAAA', 'text/plain': 'x' }, { 'text/markdown': '# m' }]);
    show({ 'image/svg+xml': '<svg/>', 'text/plain': 'chart' });
    show({});
    expect(sent).toEqual([
      ['text/html', '<b>h</b>'],
      ['image/png', 'AAAA'],
      ['text/markdown', '# m'],
      ['image/svg+xml', '<svg/>'],
    ]);
  });

  it('pickMime prefers HTML, then images, then Markdown, then plain text', () => {
    expect(pickMime({ 'text/plain': 'a', 'text/markdown': 'b' })).toBe('text/markdown');
    expect(pickMime({ 'image/jpeg': 'a', 'text/plain': 'b' })).toBe('image/jpeg');
    expect(pickMime({})).toBeNull();
  });

  it('escapes every character that matters in HTML and XML', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('markdown and note carry a plain-text fallback; note escapes its message', () => {
    expect(markdown('# t')).toEqual({ 'text/markdown': '# t', 'text/plain': '# t' });
    expect(note('a <b>')).toEqual({ 'text/plain': 'a <b>', 'text/html': '<p><em>a &lt;b&gt;</em></p>' });
  });
});
