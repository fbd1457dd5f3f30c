import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  oneLine,
  printable
} from "./chunk-5GEFFECR.mjs";
import "./chunk-E7YGSVGC.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  oneLine,
  printable
};
//# sourceMappingURL=printable-ZMYS3Y2K.mjs.map
