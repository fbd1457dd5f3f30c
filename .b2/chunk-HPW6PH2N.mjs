import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/text/postgres-url.ts
function isPostgresUrl(location) {
  return /^postgres(ql)?:\/\//i.test(location);
}

export {
  isPostgresUrl
};
//# sourceMappingURL=chunk-HPW6PH2N.mjs.map
