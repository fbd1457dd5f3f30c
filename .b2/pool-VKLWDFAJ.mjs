import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  ANSWERED_CHANNEL,
  AnswersListener,
  PostgresConnectError,
  beginSql,
  checkout,
  connectError,
  connectionBoundMs,
  makePool,
  transientReason,
  waitingQueries,
  withTx
} from "./chunk-GZBJE4PP.mjs";
import "./chunk-LX2MAEXG.mjs";
import "./chunk-64FYAIQV.mjs";
import "./chunk-755LHRXT.mjs";
import "./chunk-4EMWZ36I.mjs";
import "./chunk-HPW6PH2N.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  ANSWERED_CHANNEL,
  AnswersListener,
  PostgresConnectError,
  beginSql,
  checkout,
  connectError,
  connectionBoundMs,
  makePool,
  transientReason,
  waitingQueries,
  withTx
};
//# sourceMappingURL=pool-VKLWDFAJ.mjs.map
