import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/store/keys.ts
import { createHash } from "node:crypto";
function idempotencyKey(batchId, itemId, step, attempt = 0) {
  const item = createHash("sha256").update(itemId).digest("hex").slice(0, 24);
  return attempt > 0 ? `resq:${batchId}:${item}:${step}:a${attempt}` : `resq:${batchId}:${item}:${step}`;
}

export {
  idempotencyKey
};
//# sourceMappingURL=chunk-Q6TQJGNT.mjs.map
