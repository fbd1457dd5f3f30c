import type { FileRefInput } from '../store/types.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function asRef(v: unknown, output: string, modelId: string): FileRefInput | null {
  if (!isObject(v) || typeof v.id !== 'string' || typeof v.url !== 'string') return null;
  return {
    id: v.id,
    url: v.url,
    // The interface's `role` names the output field that refers to the file.
    role: typeof v.role === 'string' ? v.role : output,
    name: typeof v.name === 'string' ? v.name : null,
    tool: modelId,
  };
}

/**
 * The file references among a model run's outputs: a value shaped like the interface's
 * file reference (`{id, url, ...}`), directly or in an array. Pure.
 */
export function fileOutputs(outputs: Record<string, unknown> | null, modelId: string): FileRefInput[] {
  if (!outputs) return [];
  const out: FileRefInput[] = [];
  const seen = new Set<string>();
  for (const [name, v] of Object.entries(outputs)) {
    for (const candidate of Array.isArray(v) ? v : [v]) {
      const ref = asRef(candidate, name, modelId);
      if (ref && !seen.has(ref.id)) {
        seen.add(ref.id);
        out.push(ref);
      }
    }
  }
  return out;
}
