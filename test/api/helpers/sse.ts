import type { ServerResponse } from 'node:http';

/** Starts an SSE response. */
export function openSse(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  res.flushHeaders();
}

/** Formats one event. */
export function sseEvent(id: number | null, event: string, data: unknown): string {
  const idLine = id === null ? '' : `id: ${id}\n`;
  return `${idLine}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
