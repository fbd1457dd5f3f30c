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
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return { reason: 'must be "sim" or a base URL ending in /api/v1' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { reason: 'must be an http or https URL ending in /api/v1' };
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    return {
      reason: 'must be a plain base URL without credentials, query or fragment: the API key comes from RESQ_API_KEY',
    };
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/api/v1')) return { reason: 'must end in /api/v1' };
  return { kind: 'url', baseUrl: `${url.origin}${path}` };
}
