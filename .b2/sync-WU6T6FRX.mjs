import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  parse
} from "./chunk-RIILYP2P.mjs";
import {
  CsvError,
  normalize_options
} from "./chunk-6ELOTNCY.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  CsvError,
  normalize_options,
  parse
};
//# sourceMappingURL=sync-WU6T6FRX.mjs.map
