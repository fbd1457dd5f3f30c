import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  openStore
} from "./chunk-6FNU2YDX.mjs";
import {
  DEFAULT_DB_WAIT_MS
} from "./chunk-LX2MAEXG.mjs";
import "./chunk-64FYAIQV.mjs";
import {
  maskLocation
} from "./chunk-755LHRXT.mjs";
import "./chunk-4EMWZ36I.mjs";
import {
  isPostgresUrl
} from "./chunk-HPW6PH2N.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  DEFAULT_DB_WAIT_MS,
  isPostgresUrl,
  maskLocation,
  openStore
};
//# sourceMappingURL=open-D4LHEQXY.mjs.map
