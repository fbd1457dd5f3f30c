import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  readHere
} from "../chunk-GYGZWNHT.mjs";
import "../chunk-CO4W3ONN.mjs";
import "../chunk-UZQXFT2K.mjs";
import "../chunk-6ELOTNCY.mjs";
import "../chunk-UPSBM6NF.mjs";
import "../chunk-ADUNF5BB.mjs";
import {
  InputError
} from "../chunk-4EMWZ36I.mjs";
import "../chunk-BXVQVF7L.mjs";
import "../chunk-KPNMTWYO.mjs";
import "../chunk-E7YGSVGC.mjs";
import "../chunk-HPW6PH2N.mjs";
import "../chunk-5OSXGZ5J.mjs";

// src/tables/row-batch-worker.ts
import { parentPort, workerData } from "node:worker_threads";
var port = parentPort;
if (!port) throw new Error("row-batch-worker runs only as a worker thread");
var input = workerData;
var credits = input.window;
var wake = null;
port.on("message", (m) => {
  if (m !== "more") return;
  credits++;
  wake?.();
  wake = null;
});
var post = (m) => port.postMessage(m);
try {
  const read = readHere(input.path, input);
  for await (const batch of read.batches) {
    while (credits === 0) await new Promise((resolve) => wake = resolve);
    credits--;
    post({ type: "batch", batch });
  }
  post({ type: "end", sha256: read.sha256() });
} catch (e) {
  const err = e instanceof Error ? e : new Error(String(e));
  post({ type: "error", problems: e instanceof InputError ? e.problems : null, message: err.message, stack: err.stack });
}
port.close();
//# sourceMappingURL=row-batch-worker.mjs.map
