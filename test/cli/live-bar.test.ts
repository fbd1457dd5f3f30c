import { describe, expect, it } from 'vitest';
import { MemorySink } from '../../src/cli/io.js';
import { formatEta, liveBar, renderBar } from '../../src/cli/live-bar.js';

const FIELDS = 'in flight 256 | held 99999 | failed 99999';

describe('renderBar', () => {
  it('fits an 80-column terminal with large numbers, the bar shrinking first', () => {
    for (const columns of [80, 60, 40, 120]) {
      const line = renderBar({ done: 123456, total: 500000, fields: FIELDS, rate: 1234.5, eta: 99999, columns });
      expect(line.length, `${columns}: ${line}`).toBeLessThanOrEqual(columns - 1);
    }
    const wide = renderBar({ done: 5, total: 10, fields: 'in flight 1 | held 0 | failed 0', rate: 2, eta: 3, columns: 80 });
    expect(wide).toMatch(/^\[#+-+\] 5\/10 \| in flight 1 \| held 0 \| failed 0 \| 2\.0\/s \| ETA 3s$/);
  });

  it('formats the ETA in hours, minutes, seconds', () => {
    expect([formatEta(42), formatEta(185), formatEta(3720), formatEta(null)]).toEqual(['42s', '3m05s', '1h02m', '?']);
  });
});

describe('liveBar', () => {
  it('puts a note on its own line above the bar and ends on a fresh line, so a summary never overwrites either', () => {
    const out = new MemorySink();
    let t = 0;
    const bar = liveBar(out, 'in flight {inFlight}', 80, () => (t += 1000));
    bar.start(10, 0, { inFlight: 0 });
    bar.update(3, { inFlight: 2 });
    bar.note('stopping (SIGINT): no new runs are admitted');
    bar.update(4, { inFlight: 1 });
    bar.stop();
    bar.stop();
    out.write('batch b: 10 items — 4 completed\n');
    const raw = out.text;
    // No cursor save/restore: nothing jumps back over lines written since the bar started.
    expect(raw).not.toMatch(/\x1b[78]/);
    expect(raw.startsWith('\x1b[?25l')).toBe(true);
    expect(raw).toContain('\r\x1b[Kstopping (SIGINT): no new runs are admitted\n');
    expect(raw.endsWith('\n\x1b[?25hbatch b: 10 items — 4 completed\n')).toBe(true);
    // What a terminal shows: every line intact, in order.
    const screen = raw.replace(/\x1b\[\?25[lh]/g, '').split('\n').map((l) => l.split('\r').at(-1)?.replace(/\x1b\[K/g, ''));
    expect(screen.filter(Boolean)).toEqual([
      'stopping (SIGINT): no new runs are admitted',
      expect.stringMatching(/^\[#+-+\] 4\/10 \| in flight 1 \| /),
      'batch b: 10 items — 4 completed',
    ]);
  });
});
