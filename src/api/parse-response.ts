import type { z } from 'zod';
import { ResponseShapeError, type RequestInfo } from './errors.js';

/**
 * Validates a response body against its schema: the only way data enters the client.
 * Issues name the field and the problem, never the value (a value could be anything).
 */
export function parseResponse<S extends z.ZodType>(
  schema: S,
  data: unknown,
  req: Pick<RequestInfo, 'method' | 'path'>,
): z.infer<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.map(String).join('.') : '(body)';
    return `${where}: ${issue.message}`;
  });
  throw new ResponseShapeError({ method: req.method, path: req.path, issues });
}
