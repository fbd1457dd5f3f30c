import { describe, expect, it } from 'vitest';
import { barChart, formatNumber, histogram, niceStep } from '../../src/charts/svg-chart.js';
import { findAll, parseXml, textOf } from '../notebook/support/xml.js';

function svgOf(b: { 'image/svg+xml'?: string }) {
  const svg = b['image/svg+xml'];
  if (!svg) throw new Error('no SVG in the bundle');
  return parseXml(svg);
}

describe('SVG charts', () => {
  it('draws one well-formed, self-contained bar per value, with escaped labels', () => {
    const b = barChart(
      [
        { label: 'a <b> & "c"', value: 3 },
        { label: 'd', value: 7.25, color: '#f00' },
      ],
      { title: 'T & <U>', unit: 's' },
    );
    const root = svgOf(b);
    expect(root.name).toBe('svg');
    expect(root.attrs.xmlns).toBe('http://www.w3.org/2000/svg');
    expect(findAll(root, 'rect')).toHaveLength(2);
    const texts = findAll(root, 'text').map(textOf);
    expect(texts).toContain('T & <U>');
    expect(texts).toContain('a <b> & "c"');
    expect(texts).toContain('7.25 s');
    expect(b['image/svg+xml']).not.toMatch(/<script|href=|url\(/);
    expect(b['text/plain']).toBe('T & <U>\n  a <b> & "c": 3 s\n  d: 7.25 s');
  });

  it('bar widths are proportional to values', () => {
    const root = svgOf(barChart([{ label: 'x', value: 2 }, { label: 'y', value: 4 }], { title: 't' }));
    const [w1, w2] = findAll(root, 'rect').map((r) => Number(r.attrs.width));
    expect(w2! / w1!).toBeCloseTo(2, 1);
  });

  it('stacks segments and draws a legend', () => {
    const root = svgOf(
      barChart([{ label: 'i', value: 3, segments: [{ value: 1 }, { value: 2, label: 'second' }] }], {
        title: 't',
        legend: [{ label: 'first', color: '#111' }, { label: 'second', color: '#222' }],
      }),
    );
    expect(findAll(root, 'rect')).toHaveLength(4);
    expect(findAll(root, 'title').map(textOf)).toContain('second');
  });

  it('an empty chart is still well-formed SVG and says why it is empty', () => {
    const b = barChart([], { title: 'Runs', empty: 'no finished runs' });
    expect(findAll(svgOf(b), 'text').map(textOf)).toEqual(['Runs', 'no finished runs']);
    expect(b['text/plain']).toBe('Runs: no finished runs');
  });

  it('histogram bins count every value once', () => {
    const values = [0.1, 0.2, 0.25, 0.9, 1.4, 1.41, 3];
    const b = histogram(values, { title: 'h', unit: 's', bins: 5 });
    const counts = (b['text/plain'] ?? '').split('\n').slice(1).map((l) => Number(l.split(': ')[1]));
    expect(counts.reduce((a, c) => a + c, 0)).toBe(values.length);
    svgOf(b);
    expect(histogram([], { title: 'h', empty: 'nothing' })['text/plain']).toBe('h: nothing');
    expect(histogram([5, 5, 5], { title: 'same' })['text/plain']).toContain(': 3');
  });

  it('the well-formedness check used here rejects what a browser would not draw', () => {
    expect(() => parseXml('<svg><text font-size="1" font-size="2">x</text></svg>')).toThrow(/duplicate attribute/);
    expect(() => parseXml('<svg><g></svg>')).toThrow(/closes <g>/);
    expect(() => parseXml('<svg><text>a & b</text></svg>')).toThrow(/bad entity/);
    expect(() => parseXml('<svg><rect x=1/></svg>')).toThrow(/stray/);
  });

  it('round steps and short numbers', () => {
    expect([niceStep(0.13), niceStep(3), niceStep(7), niceStep(42), niceStep(0)]).toEqual([0.2, 5, 10, 50, 1]);
    expect([formatNumber(3), formatNumber(0.12345), formatNumber(12.345), formatNumber(1234.5)]).toEqual(['3', '0.123', '12.35', '1235']);
  });
});
