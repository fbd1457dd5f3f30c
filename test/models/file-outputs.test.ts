import { describe, expect, it } from 'vitest';
import { fileOutputs } from '../../src/models/file-outputs.js';

describe('fileOutputs', () => {
  it('finds file references directly and in arrays, role defaulting to the output name', () => {
    const refs = fileOutputs(
      {
        meanPlddt: 80,
        structure: { id: 'f1', url: 'http://x/api/v1/files/f1', name: 'a.pdb', role: 'structure' },
        frames: [{ id: 'f2', url: 'http://x/api/v1/files/f2' }, { id: 'f1', url: 'http://x/api/v1/files/f1' }, 'no'],
        notAFile: { id: 'f3' },
      },
      'fold',
    );
    expect(refs).toEqual([
      { id: 'f1', url: 'http://x/api/v1/files/f1', role: 'structure', name: 'a.pdb', tool: 'fold' },
      { id: 'f2', url: 'http://x/api/v1/files/f2', role: 'frames', name: null, tool: 'fold' },
    ]);
  });

  it('has nothing for null outputs', () => {
    expect(fileOutputs(null, 'fold')).toEqual([]);
  });
});
