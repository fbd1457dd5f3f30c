import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  maskLocation
} from "./chunk-755LHRXT.mjs";
import {
  isPostgresUrl
} from "./chunk-HPW6PH2N.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  isPostgresUrl,
  maskLocation
};
//# sourceMappingURL=location-CPF6FEVW.mjs.map
