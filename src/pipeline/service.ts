import { checkBaseUrl } from '../base-url.js';
import type { Pipeline } from './schema.js';

/** Where runs go: the built-in simulator, or a service at a base URL. */
export type ServiceTarget = NonNullable<Pipeline['service']>;

/**
 * Reads a pipeline's `service:` value: `sim`, or an http(s) base URL whose path ends in
 * `/api/v1` (a trailing slash is dropped). A URL carrying credentials is refused: the
 * key always comes from the environment. Pure.
 */
export function parseService(value: string): ServiceTarget | { reason: string } {
  if (value.trim() === 'sim') return { kind: 'sim' };
  const r = checkBaseUrl(value);
  if (r.ok) return { kind: 'url', baseUrl: r.baseUrl };
  return { reason: r.reason === 'is not a valid URL' ? 'must be "sim" or a base URL ending in /api/v1' : `the base URL ${r.reason}` };
}
