import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { REPORT_CSP, REPORT_CSS, REPORT_CSS_HASH } from '../../src/report/page-style.js';

describe('the report page style and policy', () => {
  it('allows exactly its own style sheet by hash, and nothing to load or run', () => {
    expect(REPORT_CSS_HASH).toBe(`'sha256-${createHash('sha256').update(REPORT_CSS).digest('base64')}'`);
    expect(REPORT_CSP.split('; ')).toEqual([`default-src 'none'`, `style-src ${REPORT_CSS_HASH}`, `img-src 'none'`, `script-src 'none'`, `base-uri 'none'`, `form-action 'none'`]);
    // The sheet itself loads nothing.
    expect(REPORT_CSS).not.toMatch(/url\(|@import|@font-face/);
  });
});
