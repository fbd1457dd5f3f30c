import { describe, expect, it } from 'vitest';
import { planStep } from '../../src/sim/agent-script.js';
import { splitText, textAt, timelineOf } from '../../src/sim/run-timeline.js';

const chain = (input: string) => ({ input, answers: [], narrow: false, earlierMessages: 0 });

describe('splitText', () => {
  it('splits into n non-empty pieces that join back', () => {
    const pieces = splitText('hello world, this is text', 4);
    expect(pieces).toHaveLength(4);
    expect(pieces.every((p) => p.length > 0)).toBe(true);
    expect(pieces.join('')).toBe('hello world, this is text');
  });

  it('pads short text and never splits a surrogate pair', () => {
    expect(splitText('ab', 4)).toEqual(['a', 'b', '.', '.']);
    expect(splitText('😀😀', 2)).toEqual(['😀', '😀']);
    expect(splitText('a😀b😀c', 3)).toEqual(['a', '😀b', '😀c']);
    expect(splitText('x', 0)).toEqual([]);
  });
});

describe('timelineOf', () => {
  it('runs the search over the first half of the text, then the file tools, the rest of the text and the end', () => {
    const tl = timelineOf(chain('q @files=md,pdb @deltas=4'), 0);
    expect(tl.steps).toEqual([
      { kind: 'started', tool: 0 },
      { kind: 'delta', piece: 0 },
      { kind: 'delta', piece: 1 },
      { kind: 'result', tool: 0 },
      { kind: 'started', tool: 1 },
      { kind: 'result', tool: 1 },
      { kind: 'started', tool: 2 },
      { kind: 'result', tool: 2 },
      { kind: 'delta', piece: 2 },
      { kind: 'delta', piece: 3 },
      { kind: 'end' },
    ]);
    expect(tl.fileIndex).toEqual([-1, 0, 1]);
    expect(tl.plan).toEqual(planStep(chain('q @files=md,pdb @deltas=4'), 0));
  });

  it('with @nosearch and one delta, sends that delta and the end only (the bench\'s few-events mix)', () => {
    const tl = timelineOf(chain('q @nosearch @deltas=1'), 0);
    expect(tl.steps).toEqual([{ kind: 'delta', piece: 0 }, { kind: 'end' }]);
    expect(tl.plan.tools).toEqual([]);
    expect(tl.pieces).toEqual([tl.fullText]);
  });

  it('gives the text written after each number of steps', () => {
    const tl = timelineOf(chain('hello there'), 0);
    expect(textAt(tl, 0)).toBe('');
    expect(textAt(tl, 2)).toBe(tl.pieces[0]);
    expect(textAt(tl, tl.steps.length - 1)).toBe(tl.pieces.join(''));
    expect(textAt(tl, tl.steps.length)).toBe(tl.fullText);
  });

  it('keeps the whole text for the end when @deltas=0', () => {
    const tl = timelineOf(chain('quiet @deltas=0'), 0);
    expect(tl.steps.some((s) => s.kind === 'delta')).toBe(false);
    expect(textAt(tl, tl.steps.length - 1)).toBe('');
    expect(textAt(tl, tl.steps.length)).toBe(tl.plan.text);
  });

  it('is the same every time for the same chain and step', () => {
    const c = { input: 'plan @confirm @choice=multi @files=csv', answers: ['confirm_scope: approved'], narrow: false, earlierMessages: 2 };
    expect(timelineOf(c, 1)).toEqual(timelineOf(c, 1));
  });
});
