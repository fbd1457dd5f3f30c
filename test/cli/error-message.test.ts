import { describe, expect, it } from 'vitest';
import { userMessage } from '../../src/cli/error-message.js';

describe('userMessage for what a transaction pooler refuses', () => {
  it('a prepared statement found or missing, or a refused startup parameter, comes with the URL parameter resq needs', () => {
    const coded = (message: string, code: string) => Object.assign(new Error(message), { code, severity: 'ERROR' });
    expect(userMessage(coded('prepared statement "resq_8" already exists', '42P05'))).toBe(
      'prepared statement "resq_8" already exists: is the database behind a pooler in transaction mode (PgBouncer)? Add ?pooler=transaction to the URL (README: "Several workers, several machines")',
    );
    expect(userMessage(coded('prepared statement "resq_2" does not exist', '26000'))).toMatch(/does not exist: is the database behind a pooler .* \?pooler=transaction/);
    expect(userMessage(coded('unsupported startup parameter: options', '08P01'))).toMatch(/options: is the database behind a pooler/);
    expect(userMessage(coded('duplicate key value violates unique constraint', '23505'))).toBe('duplicate key value violates unique constraint');
  });
});
