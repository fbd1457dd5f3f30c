import { describe, expect, it } from 'vitest';
import { formatModelStatus } from '../../src/cli/models-progress.js';
import type { ModelBatchStatus } from '../../src/models/index.js';

describe('formatModelStatus', () => {
  it("lists failed rows with the service's error verbatim but escaped, one line each", () => {
    const s: ModelBatchStatus = {
      batch: 'm', batchId: 'x', model: 'fold', mode: null, total: 2,
      counts: { queued: 0, submitting: 0, running: 0, waiting: 0, held: 0, completed: 1, failed: 1, error: 0, cancelled: 0 },
      credits: { spent: 2, unreported: 0 }, unknownSubmission: [], polls: 0,
      files: { pending: 0, downloaded: 0, failed: 0, expired: 0, missing: 0 },
      failures: [{ id: 'r\u001b[2J', error: "could not parse SMILES 'C1\u0007'\nat 3" }],
    };
    const text = formatModelStatus(s, { db: 'x.db' });
    expect(text).toContain("  r\\x1b[2J: could not parse SMILES 'C1\\x07' at 3");
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });
});
