import { Readable } from 'node:stream';
import type { SimDeps } from '../deps.js';
import { fileChunks, fileSize, MEDIA_TYPES } from '../file-content.js';
import { HttpError } from '../http-io.js';
import type { RouteContext } from '../router.js';

/**
 * GET /files/{id}: streams the file's bytes, generated on the fly with backpressure.
 * A `dropAfter` fault cuts the connection halfway through the body.
 */
export async function getFile(ctx: RouteContext, d: SimDeps): Promise<'streamed'> {
  const id = ctx.params.id ?? '';
  const f = d.store.file(ctx.account, id, d.clock.now());
  if (!f) throw new HttpError(404, 'not_found', `file ${id} not found`);
  const size = fileSize(f);
  const headers: Record<string, string | number> = {
    'content-type': MEDIA_TYPES[f.kind],
    'content-length': size,
    'cache-control': 'private, max-age=0',
  };
  if (f.name !== undefined) headers['content-disposition'] = `attachment; filename*=UTF-8''${encodeURIComponent(f.name)}`;
  const { res } = ctx;
  res.writeHead(200, headers);
  if (ctx.req.method === 'HEAD') {
    res.end();
    return 'streamed';
  }
  d.counters.fileFetch(id);
  const cutAt = ctx.afterFault === 'dropAfter' ? Math.floor(size / 2) : Number.POSITIVE_INFINITY;
  const source = Readable.from(truncated(fileChunks(f), cutAt), { objectMode: false });
  source.on('end', () => {
    if (cutAt !== Number.POSITIVE_INFINITY) {
      d.counters.fault('dropAfter');
      res.destroy();
    }
  });
  source.on('error', () => res.destroy());
  res.on('close', () => source.destroy());
  source.pipe(res, { end: cutAt === Number.POSITIVE_INFINITY });
  return 'streamed';
}

function* truncated(chunks: Iterable<Buffer>, limit: number): Generator<Buffer> {
  let left = limit;
  for (const c of chunks) {
    if (left <= 0) return;
    const piece = c.length <= left ? c : c.subarray(0, left);
    left -= piece.length;
    yield piece;
  }
}
