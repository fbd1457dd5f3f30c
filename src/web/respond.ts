import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import { ErrorSchema } from './api-schemas.js';

/** What an error answer may carry besides its message and code (see ErrorSchema). */
type ErrorExtra = Omit<z.input<typeof ErrorSchema>, 'error' | 'code'>;

/** A JSON answer checked against its schema first (a mismatch is a bug: it throws, nothing half-valid goes out). */
export function sendJson<S extends z.ZodType>(c: Context, schema: S, value: z.input<S>, status: ContentfulStatusCode = 200): Response {
  return c.json(schema.parse(value) as object, status, { 'Cache-Control': 'no-store' });
}

/** An error answer: one line for a person, and a machine-readable code. */
export function sendError(c: Context, status: ContentfulStatusCode, code: string, error: string, extra: ErrorExtra = {}): Response {
  return sendJson(c, ErrorSchema, { error, code, ...extra }, status);
}

/** The first problem of a request that does not fit its schema, as one line naming its field. */
export function issueLine(where: 'query' | 'body', e: z.ZodError): string {
  const first = e.issues[0];
  const path = first?.path.length ? `${first.path.join('.')}: ` : '';
  const msg = first?.message ?? 'invalid';
  // A custom issue already names its field.
  return `${where}: ${first?.code === 'custom' ? msg : `${path}${msg}`}`;
}

/** A request that does not fit its schema: 400 naming the first field and what is wrong. */
export function badRequest(c: Context, where: 'query' | 'body', e: z.ZodError): Response {
  return sendError(c, 400, 'RESQ_BAD_REQUEST', issueLine(where, e));
}

/** The query string as an object of its first values. */
export function queryOf(c: Context): Record<string, string> {
  return Object.fromEntries(new URL(c.req.url).searchParams);
}
