import { describe, expect, it } from 'vitest';
import { isSafeLink, renderMarkdown } from '../../src/web/markdown.js';

describe('renderMarkdown', () => {
  it('escapes raw HTML instead of passing it through', () => {
    const html = renderMarkdown('hi <script>alert(1)</script> <img src=x onerror=alert(1)>');
    expect(html).toBe('<p>hi &lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt;</p>\n');
  });

  it('keeps http(s) and mailto links (opened apart, no referrer), drops every other scheme', () => {
    expect(renderMarkdown('[a](https://x.org/p)')).toContain('<a href="https://x.org/p" rel="noopener noreferrer nofollow" target="_blank">a</a>');
    expect(renderMarkdown('[m](mailto:a@b.org)')).toContain('href="mailto:a@b.org"');
    for (const bad of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,x', 'vbscript:x', '/relative', 'file:///etc/passwd']) {
      expect(renderMarkdown(`[x](${bad})`)).not.toContain('<a ');
      expect(isSafeLink(bad)).toBe(false);
    }
  });

  it('renders no images (nothing is fetched from elsewhere)', () => {
    expect(renderMarkdown('![alt](https://x.org/i.png)')).not.toContain('<img');
  });
});
