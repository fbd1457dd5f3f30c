import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
//# sourceMappingURL=chunk-RXPVMVT6.mjs.map
