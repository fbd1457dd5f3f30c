import { describe, expect, it } from 'vitest';
import { ITEM_STATES, STATE_COLORS } from '../../src/store/item-states.js';
import { loadStatic, statesCss, statesModule } from '../../src/web/static-files.js';
import { STATUS_COLORS } from '../../src/notebook/charts.js';

describe("the page's files", () => {
  it("serve the item states and their colours as a module written from the library's one list", async () => {
    const f = loadStatic().get('/static/js/states.js');
    expect(f?.type).toMatch(/^text\/javascript/);
    const url = `data:text/javascript;base64,${Buffer.from(f!.body).toString('base64')}`;
    const mod = (await import(url)) as { ITEM_STATES: string[]; STATE_COLORS: Record<string, string> };
    expect(mod.ITEM_STATES).toEqual([...ITEM_STATES]);
    expect(mod.STATE_COLORS).toEqual(STATE_COLORS);
    expect(f!.body.toString()).toBe(statesModule());
  });

  it('serve the state chips\' colours as a style sheet from the same list (the server-made items table has no style attribute)', () => {
    const f = loadStatic().get('/static/states.css');
    expect(f?.type).toMatch(/^text\/css/);
    expect(f!.body.toString()).toBe(statesCss());
    for (const s of ITEM_STATES) expect(statesCss()).toContain(`.chip.s-${s} { border-color: ${STATE_COLORS[s]}; }`);
    expect(loadStatic().get('/static/style.css')!.body.toString()).toContain('@import url("/static/states.css");');
  });

  it('keep no list of states of their own: the page and the notebook draw each state in its one colour', () => {
    const files = loadStatic();
    for (const [path, f] of files) {
      if (!path.endsWith('.js') || path === '/static/js/states.js') continue;
      expect(f.body.toString(), path).not.toMatch(/['"]?submitting['"]?\s*:/);
    }
    for (const [s, c] of Object.entries(STATUS_COLORS)) expect(c, s).toBe(STATE_COLORS[s as keyof typeof STATE_COLORS]);
  });
});
