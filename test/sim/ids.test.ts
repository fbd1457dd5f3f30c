import { describe, expect, it } from 'vitest';
import { derivedCallId, derivedMessageId, newRequestId } from '../../src/sim/ids.js';

const RUN = '3f1c2a9e-7b4d-4c1e-9a2b-5d6e7f8091a2';

describe('ids', () => {
  it('hands out distinct request ids of the old shape', () => {
    const ids = Array.from({ length: 1000 }, newRequestId);
    expect(new Set(ids).size).toBe(1000);
    for (const id of ids.slice(0, 5)) expect(id).toMatch(/^req_[0-9a-f]{20}$/);
  });

  it('derives call ids from the run id: stable, distinct per tool and per run', () => {
    expect(derivedCallId(RUN, 0)).toMatch(/^call_[0-9a-f]{16}$/);
    expect(derivedCallId(RUN, 1)).toBe(derivedCallId(RUN, 1));
    expect(derivedCallId(RUN, 0)).not.toBe(derivedCallId(RUN, 1));
    expect(derivedCallId(RUN, 0)).not.toBe(derivedCallId('3f1c2a9e-7b4d-4c1e-9a2b-5d6e7f8091a3', 0));
  });

  it('derives uuid-shaped message ids per run and role', () => {
    const user = derivedMessageId(RUN, 'user');
    expect(user).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(derivedMessageId(RUN, 'user')).toBe(user);
    expect(derivedMessageId(RUN, 'assistant')).not.toBe(user);
  });
});
