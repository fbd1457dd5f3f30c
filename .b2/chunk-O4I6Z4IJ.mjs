import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
//# sourceMappingURL=chunk-O4I6Z4IJ.mjs.map
