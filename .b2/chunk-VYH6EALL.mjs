import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/request-pool.ts
var DEFAULT_REQUEST_CONNECTIONS = 256;

export {
  DEFAULT_REQUEST_CONNECTIONS
};
//# sourceMappingURL=chunk-VYH6EALL.mjs.map
