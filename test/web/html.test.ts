import { describe, expect, it } from 'vitest';
import { html, Markup } from '../../src/web/html.js';

describe('html`…`: markup whose values are text unless html made them', () => {
  it('escapes a value in text and in a quoted attribute, quotes included', () => {
    const v = `<img src=x onerror="alert(1)"> & 'q'`;
    expect(html`<td title="${v}">${v}</td>`.text).toBe('<td title="&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;q&#39;">&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;q&#39;</td>');
  });

  it('puts markup another html made in as it is, arrays item by item, nothing for null, undefined and false', () => {
    const cells = ['<a>', 'b'].map((x) => html`<td>${x}</td>`);
    expect(html`<tr>${cells}${null}${undefined}${false}${0}</tr>`.text).toBe('<tr><td>&lt;a&gt;</td><td>b</td>0</tr>');
    expect(html`${new Markup('<b>kept</b>')}`.text).toBe('<b>kept</b>');
    expect(String(html`<i>${'$&'}</i>`)).toBe('<i>$&amp;</i>');
  });
});
