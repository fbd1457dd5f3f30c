import { describe, expect, it } from 'vitest';
import { isPostgresUrl } from '../../src/text/postgres-url.js';

describe('isPostgresUrl', () => {
  it('takes both schemes in any case', () => {
    for (const url of ['postgres://h/db', 'postgresql://u:p@h:5432/db', 'POSTGRES://h/db', 'PostgreSQL://h/db']) expect(isPostgresUrl(url)).toBe(true);
  });

  it('takes no file path, even one that names PostgreSQL', () => {
    for (const path of ['resq.db', 'postgres.db', './postgres://x', 'postgres:/h/db', 'mysql://h/db', '']) expect(isPostgresUrl(path)).toBe(false);
  });
});
