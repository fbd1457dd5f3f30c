import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/store/settings-defaults.ts
var DEFAULT_DOWNLOAD_CONCURRENCY = 4;

export {
  DEFAULT_DOWNLOAD_CONCURRENCY
};
//# sourceMappingURL=chunk-B3KHQ7FY.mjs.map
