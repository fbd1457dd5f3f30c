import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  transform
} from "./chunk-6ELOTNCY.mjs";

// node_modules/csv-parse/lib/sync.js
var parse = function(data, opts = {}) {
  if (typeof data === "string") {
    data = Buffer.from(data);
  }
  const records = opts && opts.objname ? /* @__PURE__ */ Object.create(null) : [];
  const parser = transform(opts);
  const push = (record) => {
    if (parser.options.objname === void 0) records.push(record);
    else {
      records[record[0]] = record[1];
    }
  };
  const close = () => {
  };
  const error = parser.parse(data, true, push, close);
  if (error !== void 0) throw error;
  return records;
};

export {
  parse
};
//# sourceMappingURL=chunk-RIILYP2P.mjs.map
