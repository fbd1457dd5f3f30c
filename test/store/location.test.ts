import { describe, expect, it } from 'vitest';
import { isPostgresUrl, maskLocation } from '../../src/store/location.js';

describe('store location', () => {
  it('tells a PostgreSQL URL from a SQLite file', () => {
    expect(isPostgresUrl('postgres://u@h/db')).toBe(true);
    expect(isPostgresUrl('PostgreSQL://u@h/db')).toBe(true);
    expect(isPostgresUrl('resq.db')).toBe(false);
    expect(isPostgresUrl('./postgres://x')).toBe(false);
  });

  it('masks the password of a URL and leaves a file path as it is', () => {
    expect(maskLocation('postgres://resq:s3cret@db.example:5432/resq')).toBe('postgres://resq:***@db.example:5432/resq');
    expect(maskLocation('postgres://resq@db.example/resq')).toBe('postgres://resq@db.example/resq');
    expect(maskLocation('/data/resq.db')).toBe('/data/resq.db');
  });

  it('masks the password of a URL that does not parse', () => {
    const masked = maskLocation('postgres://resq:s3cret@[bad/resq');
    expect(masked).not.toContain('s3cret');
    expect(masked).toContain('resq:***@');
  });
});
