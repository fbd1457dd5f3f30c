import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  html,
  renderMarkdown
} from "./chunk-AIZNH7KJ.mjs";
import {
  libraryActions
} from "./chunk-S22SQRXD.mjs";
import "./chunk-RIILYP2P.mjs";
import {
  readRuleView
} from "./chunk-FMF344S4.mjs";
import {
  INVITE_MAX_MS,
  INVITE_MS,
  SessionBook,
  allowedHosts,
  isLoopback,
  ownHosts,
  sessionCookieName,
  sessionKey,
  urlHost
} from "./chunk-DCKHWPBG.mjs";
import {
  readItemView
} from "./chunk-MOJWA6AF.mjs";
import "./chunk-2KEABKLD.mjs";
import "./chunk-EB3O5FDB.mjs";
import "./chunk-NOQYOQA2.mjs";
import "./chunk-XCINQ3MG.mjs";
import "./chunk-O6UYGKUI.mjs";
import {
  isInside
} from "./chunk-BBCHWSG3.mjs";
import "./chunk-SYF23C3W.mjs";
import "./chunk-O4I6Z4IJ.mjs";
import "./chunk-LBCVOCDB.mjs";
import {
  external_exports
} from "./chunk-UUEOY5IK.mjs";
import {
  cutText,
  decodeCursor
} from "./chunk-HXA3HFZH.mjs";
import "./chunk-6FNU2YDX.mjs";
import "./chunk-LX2MAEXG.mjs";
import {
  systemClock
} from "./chunk-64FYAIQV.mjs";
import "./chunk-KVDTBB5J.mjs";
import {
  isLocalErrno
} from "./chunk-TNKZ5VT3.mjs";
import "./chunk-B3KHQ7FY.mjs";
import "./chunk-755LHRXT.mjs";
import "./chunk-6ELOTNCY.mjs";
import "./chunk-Q6TQJGNT.mjs";
import {
  STALE_MS,
  batchCard,
  readBatchStatus,
  readNextStep
} from "./chunk-244VYD4W.mjs";
import "./chunk-IVI4HKH5.mjs";
import {
  scorersShown
} from "./chunk-DL5UYYIV.mjs";
import "./chunk-EL7BER4H.mjs";
import {
  ITEM_STATES,
  STATE_COLORS
} from "./chunk-MH23QIYG.mjs";
import {
  AlreadyAnsweredError,
  ItemNotHeldError,
  OverBudgetError,
  PauseMovedError,
  ResqError
} from "./chunk-4EMWZ36I.mjs";
import {
  readHeldWaits
} from "./chunk-M4QEDMWX.mjs";
import {
  commandHint
} from "./chunk-BXVQVF7L.mjs";
import "./chunk-KPNMTWYO.mjs";
import {
  escapeHtml
} from "./chunk-E7YGSVGC.mjs";
import "./chunk-HPW6PH2N.mjs";
import "./chunk-F57UOP2X.mjs";
import {
  deciderName
} from "./chunk-IVLJ7PFV.mjs";
import "./chunk-O4EQ2A5A.mjs";
import "./chunk-5OSXGZ5J.mjs";

// src/web/server.ts
import { randomBytes } from "node:crypto";

// node_modules/@hono/node-server/dist/constants-BLSFu_RU.mjs
var X_ALREADY_SENT = "x-hono-already-sent";

// node_modules/@hono/node-server/dist/index.mjs
import { STATUS_CODES, ServerResponse, createServer } from "node:http";
import { Http2ServerRequest, constants } from "node:http2";
import { Readable } from "node:stream";

// node_modules/hono/dist/helper/websocket/index.js
var defineWebSocketHelper = (handler) => {
  return ((...args) => {
    if (typeof args[0] === "function") {
      const [createEvents, options] = args;
      return async function upgradeWebSocket2(c, next) {
        const result = await handler(c, await createEvents(c), options);
        if (result) return result;
        await next();
      };
    } else {
      const [c, events, options] = args;
      return (async () => {
        const upgraded = await handler(c, events, options);
        if (!upgraded) throw new Error("Failed to upgrade WebSocket");
        return upgraded;
      })();
    }
  });
};

// node_modules/@hono/node-server/dist/index.mjs
var RequestError = class extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = "RequestError";
  }
};
var nonJoinedHeaders = /* @__PURE__ */ new Set([
  "age",
  "authorization",
  "content-length",
  "content-type",
  "etag",
  "expires",
  "from",
  "host",
  "if-modified-since",
  "if-unmodified-since",
  "last-modified",
  "location",
  "max-forwards",
  "proxy-authorization",
  "referer",
  "retry-after",
  "server",
  "user-agent"
]);
var validHeaderName = /^[!#$%&'*+\-.^_`|~\dA-Za-z]+$/;
var isHttpWhitespace = (code) => code === 9 || code === 10 || code === 13 || code === 32;
var normalizeHeaderValue = (value) => {
  if (!isHttpWhitespace(value.charCodeAt(0)) && !isHttpWhitespace(value.charCodeAt(value.length - 1))) return value;
  let start = 0;
  let end = value.length;
  while (start < end && isHttpWhitespace(value.charCodeAt(start))) start++;
  while (end > start && isHttpWhitespace(value.charCodeAt(end - 1))) end--;
  return value.slice(start, end);
};
var forbiddenHeaderValue = /[\0\r\n]/;
var GlobalHeaders = globalThis.Headers;
var materializeHeaders = (rawHeaders, HeadersCtor = GlobalHeaders) => {
  const headers = new HeadersCtor();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    if (!name.startsWith(":")) headers.append(name, rawHeaders[i + 1]);
  }
  return headers;
};
var RequestHeaders = class {
  #incoming;
  #rawHeaders;
  #headers;
  #invalidValue;
  constructor(incoming) {
    this.#incoming = incoming;
    if (incoming instanceof Http2ServerRequest) this.#rawHeaders = incoming.rawHeaders.slice();
  }
  get #lazyRawHeaders() {
    return this.#rawHeaders ??= this.#incoming.rawHeaders.slice();
  }
  get #native() {
    if (!this.#headers) {
      this.#headers = materializeHeaders(this.#lazyRawHeaders);
      this.#rawHeaders = void 0;
    }
    return this.#headers;
  }
  #normalizedName(name) {
    if (typeof name !== "string") return;
    if (!validHeaderName.test(name)) throw new TypeError(`Invalid header name: ${name}`);
    return name.toLowerCase();
  }
  #lookupHttp1(lowerName) {
    const headers = this.#incoming instanceof Http2ServerRequest ? void 0 : this.#incoming.headers;
    if (!headers || nonJoinedHeaders.has(lowerName) || lowerName === "set-cookie" || lowerName === "__proto__") return;
    if (!Object.hasOwn(headers, lowerName)) return null;
    const rawValue = headers[lowerName];
    if (typeof rawValue === "string") {
      const value = normalizeHeaderValue(rawValue);
      return forbiddenHeaderValue.test(value) ? void 0 : value;
    }
  }
  #lookup(rawHeaders, lowerName) {
    const separator = lowerName === "cookie" ? "; " : ", ";
    let value = null;
    for (let i = 0; i < rawHeaders.length; i += 2) {
      const rawName = rawHeaders[i];
      if (rawName.length === lowerName.length && rawName.toLowerCase() === lowerName) {
        const rawValue = normalizeHeaderValue(rawHeaders[i + 1]);
        if (forbiddenHeaderValue.test(rawValue)) {
          this.#invalidValue = true;
          return;
        }
        value = value === null ? rawValue : value + separator + rawValue;
      }
    }
    return value;
  }
  append(name, value) {
    this.#native.append(name, value);
  }
  delete(name) {
    this.#native.delete(name);
  }
  get(name) {
    const lowerName = this.#normalizedName(name);
    if (lowerName && !this.#headers && !this.#invalidValue) {
      const http1Value = this.#lookupHttp1(lowerName);
      if (http1Value !== void 0) return http1Value;
      const value = this.#lookup(this.#lazyRawHeaders, lowerName);
      if (value !== void 0) return value;
    }
    return this.#native.get(name);
  }
  has(name) {
    const lowerName = this.#normalizedName(name);
    if (lowerName && !this.#headers && !this.#invalidValue) {
      const http1Value = this.#lookupHttp1(lowerName);
      if (http1Value !== void 0) return http1Value !== null;
      const value = this.#lookup(this.#lazyRawHeaders, lowerName);
      if (value !== void 0) return value !== null;
    }
    return this.#native.has(name);
  }
  set(name, value) {
    this.#native.set(name, value);
  }
  getSetCookie() {
    return this.#native.getSetCookie();
  }
  keys() {
    return this.#native.keys();
  }
  values() {
    return this.#native.values();
  }
  entries() {
    return this.#native.entries();
  }
  forEach(callback, thisArg) {
    this.#native.forEach((value, key) => {
      callback.call(thisArg, value, key, this);
    });
  }
  [Symbol.iterator]() {
    return this.entries();
  }
};
Object.defineProperty(RequestHeaders.prototype, /* @__PURE__ */ Symbol.for("nodejs.util.inspect.custom"), { value: function(depth, options, inspectFn) {
  return `Headers (lightweight) ${inspectFn(Object.fromEntries(this), {
    ...options,
    depth: depth == null ? null : depth - 1
  })}`;
} });
Object.setPrototypeOf(RequestHeaders.prototype, GlobalHeaders.prototype);
var newHeadersFromIncoming = (incoming) => globalThis.Headers === GlobalHeaders ? new RequestHeaders(incoming) : materializeHeaders(incoming.rawHeaders, globalThis.Headers);
var reValidRequestUrl = /^\/[!#$&-;=?-\[\]_a-z~]*$/;
var reDotSegment = /\/\.\.?(?:[/?#]|$)/;
var reValidHost = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;
var validateRequestTarget = (target) => {
  const backslash = target.indexOf("\\");
  if (backslash !== -1) {
    const query = target.indexOf("?");
    if (query === -1 || backslash < query) throw new RequestError("Backslash in request path");
  }
};
var buildUrl = (scheme, host, incomingUrl) => {
  const url = `${scheme}://${host}${incomingUrl}`;
  if (!reValidHost.test(host)) {
    validateRequestTarget(incomingUrl);
    const urlObj = new URL(url);
    if (urlObj.hostname.length !== host.length && urlObj.hostname !== (host.includes(":") ? host.replace(/:\d+$/, "") : host).toLowerCase()) throw new RequestError("Invalid host header");
    return urlObj.href;
  } else if (incomingUrl.length === 0) return url + "/";
  else {
    if (incomingUrl.charCodeAt(0) !== 47) throw new RequestError("Invalid URL");
    if (!reValidRequestUrl.test(incomingUrl) || reDotSegment.test(incomingUrl)) {
      validateRequestTarget(incomingUrl);
      return new URL(url).href;
    }
    return url;
  }
};
var toRequestError = (e) => {
  if (e instanceof RequestError) return e;
  return new RequestError(e.message, { cause: e });
};
var GlobalRequest = global.Request;
var Request$1 = class Request$12 extends GlobalRequest {
  static [Symbol.hasInstance](instance) {
    if (this === Request$12) return instance instanceof GlobalRequest || Function.prototype[Symbol.hasInstance].call(this, instance);
    return Function.prototype[Symbol.hasInstance].call(this, instance);
  }
  constructor(input, options) {
    if (typeof input === "object" && getRequestCache in input) {
      const hasReplacementBody = options !== void 0 && "body" in options && options.body != null;
      if (input[bodyConsumedDirectlyKey] && !hasReplacementBody) throw new TypeError("Cannot construct a Request with a Request object that has already been used.");
      input = input[getRequestCache]();
    }
    if (typeof options?.body?.getReader !== "undefined") options.duplex ??= "half";
    super(input, options);
  }
};
var wrapBodyStream = /* @__PURE__ */ Symbol("wrapBodyStream");
var byteExactEncodings = /* @__PURE__ */ new Set([
  "latin1",
  "binary",
  "hex",
  "base64",
  "base64url"
]);
var isByteExactEncoding = (encoding) => encoding === null || byteExactEncodings.has(encoding);
var bodyBufferedBeforeDisconnectKey = /* @__PURE__ */ Symbol("bodyBufferedBeforeDisconnect");
var bodyBufferedLengthBeforeDisconnectKey = /* @__PURE__ */ Symbol("bodyBufferedLengthBeforeDisconnect");
var toBufferChunk = (chunk, encoding) => Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, encoding ?? "utf8");
var isRecoverableDisconnectedIncoming = (incoming) => !(incoming instanceof Http2ServerRequest) && !!incoming.complete && !!incoming.readableAborted && typeof incoming.read === "function" && isByteExactEncoding(incoming.readableEncoding);
var recordBodyBufferedBeforeDisconnect = (incoming) => {
  if (incoming.readableDidRead || !isRecoverableDisconnectedIncoming(incoming)) return;
  const incomingWithRecovery = incoming;
  incomingWithRecovery[bodyBufferedLengthBeforeDisconnectKey] ??= incoming.readableLength;
};
var readBodyBufferedBeforeDisconnect = (incoming, chunks) => {
  if (incoming.readableDidRead && !chunks || !isRecoverableDisconnectedIncoming(incoming)) return;
  const incomingWithRecovery = incoming;
  if (incomingWithRecovery[bodyBufferedBeforeDisconnectKey] !== void 0) return incomingWithRecovery[bodyBufferedBeforeDisconnectKey];
  let result;
  const errored = incoming.errored;
  if (errored && errored.code !== "ECONNRESET") result = errored;
  else if (incomingWithRecovery[bodyBufferedLengthBeforeDisconnectKey] !== void 0 && incoming.readableLength !== incomingWithRecovery[bodyBufferedLengthBeforeDisconnectKey]) result = newBodyUnusableError();
  else {
    const bodyChunks = chunks ?? [];
    let chunk;
    while ((chunk = incoming.read()) !== null) bodyChunks.push(toBufferChunk(chunk, incoming.readableEncoding));
    const buffer = bodyChunks.length === 1 ? bodyChunks[0] : Buffer.concat(bodyChunks);
    result = buffer;
    const contentLength = incoming.headers["content-length"];
    if (typeof contentLength === "string" && /^\d+$/.test(contentLength)) {
      const expectedLength = Number(contentLength);
      if (Number.isSafeInteger(expectedLength) && buffer.length !== expectedLength) result = newBodyUnusableError();
    }
  }
  incomingWithRecovery[bodyBufferedBeforeDisconnectKey] = result;
  return result;
};
var enqueueBufferedBody = (controller, buffered) => {
  if (buffered instanceof Error) {
    controller.error(buffered);
    return;
  }
  if (buffered.length > 0) controller.enqueue(buffered);
  controller.close();
};
var newRequestFromIncoming = (method, url, headers, incoming, abortController) => {
  const init = {
    method,
    headers,
    signal: abortController.signal
  };
  if (method === "TRACE") {
    init.method = "GET";
    const req = new Request$1(url, init);
    Object.defineProperty(req, "method", { get() {
      return "TRACE";
    } });
    return req;
  }
  if (!(method === "GET" || method === "HEAD")) if ("rawBody" in incoming && incoming.rawBody instanceof Buffer) init.body = new ReadableStream({ start(controller) {
    controller.enqueue(incoming.rawBody);
    controller.close();
  } });
  else if (incoming[wrapBodyStream]) {
    let reader;
    init.body = new ReadableStream({ async pull(controller) {
      try {
        if (!reader) {
          const buffered = readBodyBufferedBeforeDisconnect(incoming);
          if (buffered !== void 0) {
            enqueueBufferedBody(controller, buffered);
            return;
          }
        }
        reader ||= Readable.toWeb(incoming).getReader();
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
      }
    } });
  } else {
    const buffered = readBodyBufferedBeforeDisconnect(incoming);
    if (buffered !== void 0) init.body = new ReadableStream({ start(controller) {
      enqueueBufferedBody(controller, buffered);
    } });
    else init.body = Readable.toWeb(incoming);
  }
  return new Request$1(url, init);
};
var getRequestCache = /* @__PURE__ */ Symbol("getRequestCache");
var requestCache = /* @__PURE__ */ Symbol("requestCache");
var incomingKey = /* @__PURE__ */ Symbol("incomingKey");
var urlKey = /* @__PURE__ */ Symbol("urlKey");
var methodKey = /* @__PURE__ */ Symbol("methodKey");
var headersKey = /* @__PURE__ */ Symbol("headersKey");
var abortControllerKey = /* @__PURE__ */ Symbol("abortControllerKey");
var getAbortController = /* @__PURE__ */ Symbol("getAbortController");
var abortRequest = /* @__PURE__ */ Symbol("abortRequest");
var bodyBufferKey = /* @__PURE__ */ Symbol("bodyBuffer");
var bodyReadPromiseKey = /* @__PURE__ */ Symbol("bodyReadPromise");
var bodyConsumedDirectlyKey = /* @__PURE__ */ Symbol("bodyConsumedDirectly");
var bodyLockReaderKey = /* @__PURE__ */ Symbol("bodyLockReader");
var abortReasonKey = /* @__PURE__ */ Symbol("abortReason");
var newBodyUnusableError = () => {
  return /* @__PURE__ */ new TypeError("Body is unusable");
};
var rejectBodyUnusable = () => {
  return Promise.reject(newBodyUnusableError());
};
var textDecoder = new TextDecoder();
var consumeBodyDirectOnce = (request) => {
  if (request[bodyConsumedDirectlyKey]) return rejectBodyUnusable();
  request[bodyConsumedDirectlyKey] = true;
};
var toArrayBuffer = (buf) => {
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
};
var contentType = (request) => {
  return (request[headersKey] ||= newHeadersFromIncoming(request[incomingKey])).get("content-type") || "";
};
var methodTokenRegExp = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
var normalizeIncomingMethod = (method) => {
  if (typeof method !== "string" || method.length === 0) return "GET";
  switch (method) {
    case "DELETE":
    case "GET":
    case "HEAD":
    case "OPTIONS":
    case "PATCH":
    case "POST":
    case "PUT":
    case "QUERY":
      return method;
  }
  const upper = method.toUpperCase();
  switch (upper) {
    case "DELETE":
    case "GET":
    case "HEAD":
    case "OPTIONS":
    case "POST":
    case "PUT":
      return upper;
    default:
      return method;
  }
};
var validateDirectReadMethod = (method) => {
  if (!methodTokenRegExp.test(method)) return /* @__PURE__ */ new TypeError(`'${method}' is not a valid HTTP method.`);
  const normalized = method.toUpperCase();
  if (normalized === "CONNECT" || normalized === "TRACK" || normalized === "TRACE" && method !== "TRACE") return /* @__PURE__ */ new TypeError(`'${method}' HTTP method is unsupported.`);
};
var readBodyWithFastPath = (request, method, fromBuffer) => {
  if (request[bodyConsumedDirectlyKey]) return rejectBodyUnusable();
  const methodName = request.method;
  if (methodName === "GET" || methodName === "HEAD") return request[getRequestCache]()[method]();
  const methodValidationError = validateDirectReadMethod(methodName);
  if (methodValidationError) return Promise.reject(methodValidationError);
  if (request[requestCache]) {
    if (methodName !== "TRACE") return request[requestCache][method]();
  }
  const alreadyUsedError = consumeBodyDirectOnce(request);
  if (alreadyUsedError) return alreadyUsedError;
  const raw2 = readRawBodyIfAvailable(request);
  if (raw2) {
    const result = Promise.resolve(fromBuffer(raw2, request));
    request[bodyBufferKey] = void 0;
    return result;
  }
  return readBodyDirect(request).then((buf) => {
    const result = fromBuffer(buf, request);
    request[bodyBufferKey] = void 0;
    return result;
  });
};
var readRawBodyIfAvailable = (request) => {
  const incoming = request[incomingKey];
  if ("rawBody" in incoming && incoming.rawBody instanceof Buffer) return incoming.rawBody;
};
var normalizeAbortError = (request, incoming) => {
  if (incoming.errored) return incoming.errored;
  const reason = request[abortReasonKey];
  if (reason !== void 0) return reason instanceof Error ? reason : new Error(String(reason));
  return /* @__PURE__ */ new Error("Client connection prematurely closed.");
};
var readBodyDirect = (request) => {
  if (request[bodyBufferKey]) return Promise.resolve(request[bodyBufferKey]);
  if (request[bodyReadPromiseKey]) return request[bodyReadPromiseKey];
  const incoming = request[incomingKey];
  if (incoming.readableDidRead) return rejectBodyUnusable();
  const buffered = readBodyBufferedBeforeDisconnect(incoming);
  if (buffered !== void 0) {
    if (buffered instanceof Error) return Promise.reject(buffered);
    request[bodyBufferKey] = buffered;
    return Promise.resolve(buffered);
  }
  const promise = new Promise((resolve2, reject) => {
    const chunks = [];
    let settled = false;
    const finish = (callback) => {
      if (settled) return;
      settled = true;
      cleanup();
      callback();
    };
    const recoverCompleteBodyAfterDisconnect = (error) => {
      const streamError = incoming.errored ?? error;
      if (!isRecoverableDisconnectedIncoming(incoming) || streamError && streamError.code !== "ECONNRESET") return false;
      finish(() => {
        const recovered = readBodyBufferedBeforeDisconnect(incoming, chunks);
        if (recovered instanceof Error) reject(recovered);
        else if (recovered === void 0) reject(error ?? normalizeAbortError(request, incoming));
        else {
          request[bodyBufferKey] = recovered;
          resolve2(recovered);
        }
      });
      return true;
    };
    const onData = (chunk) => {
      chunks.push(toBufferChunk(chunk, incoming.readableEncoding));
    };
    const onEnd = () => {
      finish(() => {
        const buffer = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
        request[bodyBufferKey] = buffer;
        resolve2(buffer);
      });
    };
    const onError = (error) => {
      if (recoverCompleteBodyAfterDisconnect(error)) return;
      finish(() => {
        reject(error);
      });
    };
    const onClose = () => {
      if (incoming.readableEnded) {
        onEnd();
        return;
      }
      if (recoverCompleteBodyAfterDisconnect()) return;
      finish(() => {
        reject(normalizeAbortError(request, incoming));
      });
    };
    const cleanup = () => {
      incoming.off("data", onData);
      incoming.off("end", onEnd);
      incoming.off("error", onError);
      incoming.off("close", onClose);
      request[bodyReadPromiseKey] = void 0;
    };
    incoming.on("data", onData);
    incoming.on("end", onEnd);
    incoming.on("error", onError);
    incoming.on("close", onClose);
    queueMicrotask(() => {
      if (settled) return;
      if (incoming.readableEnded) onEnd();
      else if (incoming.errored) onError(incoming.errored);
      else if (incoming.destroyed) onClose();
    });
  });
  request[bodyReadPromiseKey] = promise;
  return promise;
};
var requestPrototype = {
  get method() {
    return this[methodKey];
  },
  get url() {
    return this[urlKey];
  },
  get headers() {
    return this[headersKey] ||= newHeadersFromIncoming(this[incomingKey]);
  },
  [abortRequest](reason) {
    if (this[abortReasonKey] === void 0) this[abortReasonKey] = reason;
    const abortController = this[abortControllerKey];
    if (abortController && !abortController.signal.aborted) abortController.abort(reason);
  },
  [getAbortController]() {
    this[abortControllerKey] ||= new AbortController();
    if (this[abortReasonKey] !== void 0 && !this[abortControllerKey].signal.aborted) this[abortControllerKey].abort(this[abortReasonKey]);
    return this[abortControllerKey];
  },
  [getRequestCache]() {
    const abortController = this[getAbortController]();
    if (this[requestCache]) return this[requestCache];
    const method = this.method;
    if (this[bodyConsumedDirectlyKey] && !(method === "GET" || method === "HEAD")) {
      this[bodyBufferKey] = void 0;
      const init = {
        method: method === "TRACE" ? "GET" : method,
        headers: this.headers,
        signal: abortController.signal
      };
      if (method !== "TRACE") {
        init.body = new ReadableStream({ start(c) {
          c.close();
        } });
        init.duplex = "half";
      }
      const req = new Request$1(this[urlKey], init);
      if (method === "TRACE") Object.defineProperty(req, "method", { get() {
        return "TRACE";
      } });
      return this[requestCache] = req;
    }
    return this[requestCache] = newRequestFromIncoming(this.method, this[urlKey], this.headers, this[incomingKey], abortController);
  },
  get body() {
    if (!this[bodyConsumedDirectlyKey]) return this[getRequestCache]().body;
    const request = this[getRequestCache]();
    if (!this[bodyLockReaderKey] && request.body) this[bodyLockReaderKey] = request.body.getReader();
    return request.body;
  },
  get bodyUsed() {
    if (this[bodyConsumedDirectlyKey]) return true;
    if (this[requestCache]) return this[requestCache].bodyUsed;
    return false;
  }
};
Object.defineProperty(requestPrototype, "signal", { get() {
  return this[getAbortController]().signal;
} });
[
  "cache",
  "credentials",
  "destination",
  "duplex",
  "integrity",
  "mode",
  "redirect",
  "referrer",
  "referrerPolicy",
  "keepalive"
].forEach((k) => {
  Object.defineProperty(requestPrototype, k, { get() {
    return this[getRequestCache]()[k];
  } });
});
["clone", "formData"].forEach((k) => {
  Object.defineProperty(requestPrototype, k, { value: function() {
    if (this[bodyConsumedDirectlyKey]) {
      if (k === "clone") throw newBodyUnusableError();
      return rejectBodyUnusable();
    }
    return this[getRequestCache]()[k]();
  } });
});
Object.defineProperty(requestPrototype, "text", { value: function() {
  return readBodyWithFastPath(this, "text", (buf) => textDecoder.decode(buf));
} });
Object.defineProperty(requestPrototype, "arrayBuffer", { value: function() {
  return readBodyWithFastPath(this, "arrayBuffer", (buf) => toArrayBuffer(buf));
} });
Object.defineProperty(requestPrototype, "blob", { value: function() {
  return readBodyWithFastPath(this, "blob", (buf, request) => {
    const type = contentType(request);
    const init = type ? { headers: { "content-type": type } } : void 0;
    return new Response(buf, init).blob();
  });
} });
Object.defineProperty(requestPrototype, "bytes", { value: function() {
  return this.arrayBuffer().then((buf) => new Uint8Array(buf));
} });
Object.defineProperty(requestPrototype, "json", { value: function() {
  if (this[bodyConsumedDirectlyKey]) return rejectBodyUnusable();
  return this.text().then(JSON.parse);
} });
Object.defineProperty(requestPrototype, /* @__PURE__ */ Symbol.for("nodejs.util.inspect.custom"), { value: function(depth, options, inspectFn) {
  return `Request (lightweight) ${inspectFn({
    method: this.method,
    url: this.url,
    headers: this.headers,
    nativeRequest: this[requestCache]
  }, {
    ...options,
    depth: depth == null ? null : depth - 1
  })}`;
} });
Object.setPrototypeOf(requestPrototype, Request$1.prototype);
var newRequest = (incoming, defaultHostname) => {
  const req = Object.create(requestPrototype);
  req[incomingKey] = incoming;
  req[methodKey] = normalizeIncomingMethod(incoming.method);
  const incomingUrl = incoming.url || "";
  if (incomingUrl[0] !== "/" && (incomingUrl.startsWith("http://") || incomingUrl.startsWith("https://"))) {
    if (incoming instanceof Http2ServerRequest) throw new RequestError("Absolute URL for :path is not allowed in HTTP/2");
    try {
      validateRequestTarget(incomingUrl);
      req[urlKey] = new URL(incomingUrl).href;
    } catch (e) {
      throw new RequestError("Invalid absolute URL", { cause: e });
    }
    return req;
  }
  const host = (incoming instanceof Http2ServerRequest ? incoming.authority : incoming.headers.host) || defaultHostname;
  if (!host) throw new RequestError("Missing host header");
  let scheme;
  if (incoming instanceof Http2ServerRequest) {
    scheme = incoming.scheme;
    if (!(scheme === "http" || scheme === "https")) throw new RequestError("Unsupported scheme");
  } else scheme = incoming.socket && incoming.socket.encrypted ? "https" : "http";
  try {
    req[urlKey] = buildUrl(scheme, host, incomingUrl);
  } catch (e) {
    if (e instanceof RequestError) throw e;
    else throw new RequestError("Invalid URL", { cause: e });
  }
  return req;
};
var defaultContentType = "text/plain; charset=UTF-8";
var responseCache = /* @__PURE__ */ Symbol("responseCache");
var getResponseCache = /* @__PURE__ */ Symbol("getResponseCache");
var cacheKey = /* @__PURE__ */ Symbol("cache");
var GlobalResponse = global.Response;
var Response$1 = class Response$12 {
  #body;
  #init;
  static [Symbol.hasInstance](instance) {
    if (this === Response$12) return instance instanceof GlobalResponse || Function.prototype[Symbol.hasInstance].call(this, instance);
    return Function.prototype[Symbol.hasInstance].call(this, instance);
  }
  [getResponseCache]() {
    const cache = this[cacheKey];
    const liveHeaders = cache && cache[2] instanceof Headers ? cache[2] : void 0;
    delete this[cacheKey];
    return this[responseCache] ||= new GlobalResponse(this.#body, liveHeaders ? {
      status: this.#init?.status,
      statusText: this.#init?.statusText,
      headers: liveHeaders
    } : this.#init);
  }
  constructor(body, init) {
    let headers;
    this.#body = body;
    if (init instanceof GlobalResponse) {
      const cachedGlobalResponse = init[responseCache];
      if (cachedGlobalResponse) {
        this.#init = cachedGlobalResponse;
        this[getResponseCache]();
        return;
      }
      this.#init = #init in init ? init.#init : init;
      headers = new Headers(init.headers);
    } else this.#init = init;
    if (body == null || typeof body === "string" || typeof body?.getReader !== "undefined" || body instanceof Blob || body instanceof Uint8Array) this[cacheKey] = [
      init?.status || 200,
      body ?? null,
      headers || init?.headers
    ];
  }
  get headers() {
    const cache = this[cacheKey];
    if (cache) {
      if (!(cache[2] instanceof Headers)) cache[2] = new Headers(cache[2] || (cache[1] === null ? void 0 : { "content-type": defaultContentType }));
      return cache[2];
    }
    return this[getResponseCache]().headers;
  }
  get status() {
    return this[cacheKey]?.[0] ?? this[getResponseCache]().status;
  }
  get ok() {
    const status = this.status;
    return status >= 200 && status < 300;
  }
};
[
  "body",
  "bodyUsed",
  "redirected",
  "statusText",
  "trailers",
  "type",
  "url"
].forEach((k) => {
  Object.defineProperty(Response$1.prototype, k, { get() {
    return this[getResponseCache]()[k];
  } });
});
[
  "arrayBuffer",
  "blob",
  "bytes",
  "clone",
  "formData",
  "json",
  "text"
].forEach((k) => {
  Object.defineProperty(Response$1.prototype, k, { value: function() {
    return this[getResponseCache]()[k]();
  } });
});
Object.defineProperty(Response$1.prototype, /* @__PURE__ */ Symbol.for("nodejs.util.inspect.custom"), { value: function(depth, options, inspectFn) {
  return `Response (lightweight) ${inspectFn({
    status: this.status,
    headers: this.headers,
    ok: this.ok,
    nativeResponse: this[responseCache]
  }, {
    ...options,
    depth: depth == null ? null : depth - 1
  })}`;
} });
Object.setPrototypeOf(Response$1, GlobalResponse);
Object.setPrototypeOf(Response$1.prototype, GlobalResponse.prototype);
var validRedirectUrl = /^https?:\/\/[!#-;=?-[\]_a-z~A-Z]+$/;
var parseRedirectUrl = (url) => {
  if (url instanceof URL) return url.href;
  if (validRedirectUrl.test(url)) return url;
  return new URL(url).href;
};
var validRedirectStatuses = /* @__PURE__ */ new Set([
  301,
  302,
  303,
  307,
  308
]);
Object.defineProperty(Response$1, "redirect", {
  value: function redirect(url, status = 302) {
    if (!validRedirectStatuses.has(status)) throw new RangeError("Invalid status code");
    return new Response$1(null, {
      status,
      headers: { location: parseRedirectUrl(url) }
    });
  },
  writable: true,
  configurable: true
});
Object.defineProperty(Response$1, "json", {
  value: function json(data, init) {
    const body = JSON.stringify(data);
    if (body === void 0) throw new TypeError("The data is not JSON serializable");
    const initHeaders = init?.headers;
    let headers;
    if (initHeaders) {
      headers = new Headers(initHeaders);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
    } else headers = { "content-type": "application/json" };
    return new Response$1(body, {
      status: init?.status ?? 200,
      statusText: init?.statusText,
      headers
    });
  },
  writable: true,
  configurable: true
});
async function readWithoutBlocking(readPromise) {
  return Promise.race([readPromise, Promise.resolve().then(() => Promise.resolve(void 0))]);
}
function writeFromReadableStreamDefaultReader(reader, writable, currentReadPromise) {
  const cancel = (error) => {
    reader.cancel(error).catch(() => {
    });
  };
  const stream = writable.stream;
  if (writable.destroyed || stream?.closed || stream?.destroyed) {
    cancel();
    return reader.closed;
  }
  writable.on("close", cancel);
  writable.on("error", cancel);
  (currentReadPromise ?? reader.read()).then(flow, handleStreamError);
  return reader.closed.finally(() => {
    writable.off("close", cancel);
    writable.off("error", cancel);
  });
  function handleStreamError(error) {
    if (error) writable.destroy(error);
  }
  function onDrain() {
    reader.read().then(flow, handleStreamError);
  }
  function flow({ done, value }) {
    try {
      if (done) writable.end();
      else if (!writable.write(value)) writable.once("drain", onDrain);
      else reader.read().then(flow, handleStreamError);
    } catch (e) {
      handleStreamError(e);
    }
  }
}
function writeFromReadableStream(stream, writable) {
  if (stream.locked) throw new TypeError("ReadableStream is locked.");
  else if (writable.destroyed) {
    stream.cancel().catch(() => {
    });
    return;
  }
  return writeFromReadableStreamDefaultReader(stream.getReader(), writable);
}
var buildOutgoingHttpHeaders = (headers, defaultContentType2) => {
  const res = {};
  if (!(headers instanceof Headers)) headers = new Headers(headers ?? void 0);
  if (headers.has("set-cookie")) {
    const cookies = [];
    for (const [k, v] of headers) if (k === "set-cookie") cookies.push(v);
    else res[k] = v;
    if (cookies.length > 0) res["set-cookie"] = cookies;
  } else for (const [k, v] of headers) res[k] = v;
  if (defaultContentType2) res["content-type"] ??= defaultContentType2;
  return res;
};
var outgoingEnded = /* @__PURE__ */ Symbol("outgoingEnded");
var incomingDraining = /* @__PURE__ */ Symbol("incomingDraining");
var DRAIN_TIMEOUT_MS = 500;
var MAX_DRAIN_BYTES = 64 * 1024 * 1024;
var drainIncoming = (incoming) => {
  const incomingWithDrainState = incoming;
  if (incoming.destroyed || incomingWithDrainState[incomingDraining]) return;
  incomingWithDrainState[incomingDraining] = true;
  if (incoming instanceof Http2ServerRequest) {
    try {
      incoming.stream?.close?.(constants.NGHTTP2_NO_ERROR);
    } catch {
    }
    return;
  }
  let bytesRead = 0;
  const cleanup = () => {
    clearTimeout(timer);
    incoming.off("data", onData);
    incoming.off("end", cleanup);
    incoming.off("error", cleanup);
  };
  const forceClose = () => {
    cleanup();
    const socket = incoming.socket;
    if (socket && !socket.destroyed) {
      if (typeof socket.destroySoon === "function") socket.destroySoon();
      else if (typeof socket.destroy === "function") socket.destroy();
    }
  };
  const timer = setTimeout(forceClose, DRAIN_TIMEOUT_MS);
  timer.unref?.();
  const onData = (chunk) => {
    bytesRead += chunk.length;
    if (bytesRead > MAX_DRAIN_BYTES) forceClose();
  };
  incoming.on("data", onData);
  incoming.on("end", cleanup);
  incoming.on("error", cleanup);
  incoming.resume();
};
var makeCloseHandler = (req, incoming, outgoing, needsBodyCleanup) => () => {
  if (incoming.errored) {
    recordBodyBufferedBeforeDisconnect(incoming);
    req[abortRequest](incoming.errored.toString());
  } else if (!outgoing.writableFinished || incoming instanceof Http2ServerRequest && incoming.aborted) {
    recordBodyBufferedBeforeDisconnect(incoming);
    req[abortRequest]("Client connection prematurely closed.");
  }
  if (needsBodyCleanup && !incoming.readableEnded) setTimeout(() => {
    if (!incoming.readableEnded) setTimeout(() => {
      drainIncoming(incoming);
    });
  });
};
var isImmediateCacheableResponse = (res) => {
  if (!(cacheKey in res)) return false;
  const body = res[cacheKey][1];
  return body === null || typeof body === "string" || body instanceof Uint8Array;
};
var handleRequestError = () => new Response(null, { status: 400 });
var handleFetchError = (e) => new Response(null, { status: e instanceof Error && (e.name === "TimeoutError" || e.constructor.name === "TimeoutError") ? 504 : 500 });
var handleResponseError = (e, outgoing) => {
  const err = e instanceof Error ? e : new Error("unknown error", { cause: e });
  if (err.code === "ERR_STREAM_PREMATURE_CLOSE") console.info("The user aborted a request.");
  else {
    console.error(e);
    if (!outgoing.headersSent) {
      if (outgoing instanceof ServerResponse) outgoing._contentLength = null;
      outgoing.writeHead(500, { "Content-Type": "text/plain" });
    }
    outgoing.end(`Error: ${err.message}`);
    outgoing.destroy(err);
  }
};
var flushHeaders = (outgoing) => {
  if ("flushHeaders" in outgoing && outgoing.writable) outgoing.flushHeaders();
};
var trySetContentLength = (outgoing, status, length) => {
  const http1 = outgoing;
  if (http1._contentLength === null && http1._hasBody && http1.useChunkedEncodingByDefault && !http1._removedContLen && status >= 200 && status !== 204 && status !== 304 && !outgoing.hasHeader("content-length") && !outgoing.hasHeader("transfer-encoding") && !outgoing.hasHeader("trailer")) {
    http1._contentLength = length;
    return true;
  }
  return false;
};
var writeDefaultHeaders = (outgoing, status, length) => {
  if (trySetContentLength(outgoing, status, length)) outgoing.writeHead(status, { "Content-Type": defaultContentType });
  else outgoing.writeHead(status, {
    "Content-Type": defaultContentType,
    "Content-Length": length
  });
};
var responseViaCache = async (res, outgoing) => {
  let [status, body, header] = res[cacheKey];
  if (!header) {
    if (body === null) {
      outgoing.writeHead(status);
      outgoing.end();
    } else if (typeof body === "string") {
      writeDefaultHeaders(outgoing, status, Buffer.byteLength(body));
      outgoing.end(body);
    } else if (body instanceof Uint8Array) {
      writeDefaultHeaders(outgoing, status, body.byteLength);
      outgoing.end(body);
    } else if (body instanceof Blob) {
      writeDefaultHeaders(outgoing, status, body.size);
      outgoing.end(new Uint8Array(await body.arrayBuffer()));
    } else {
      outgoing.writeHead(status, { "Content-Type": defaultContentType });
      flushHeaders(outgoing);
      await writeFromReadableStream(body, outgoing)?.catch((e) => handleResponseError(e, outgoing));
    }
    outgoing[outgoingEnded]?.();
    return;
  }
  let hasContentLength = false;
  let plainHeaders = false;
  let canAutoLength = true;
  if (header instanceof Headers) {
    hasContentLength = header.has("content-length");
    header = buildOutgoingHttpHeaders(header, body === null ? void 0 : defaultContentType);
  } else if (Array.isArray(header)) {
    const headerObj = new Headers(header);
    hasContentLength = headerObj.has("content-length");
    header = buildOutgoingHttpHeaders(headerObj, body === null ? void 0 : defaultContentType);
  } else {
    plainHeaders = true;
    for (const key in header) {
      if (key.length === 14 && key.toLowerCase() === "content-length") {
        hasContentLength = true;
        break;
      }
      if (key.length === 17 && key.toLowerCase() === "transfer-encoding" || key.length === 7 && key.toLowerCase() === "trailer") canAutoLength = false;
    }
  }
  if (!hasContentLength) {
    let length;
    if (typeof body === "string") length = Buffer.byteLength(body);
    else if (body instanceof Uint8Array) length = body.byteLength;
    else if (body instanceof Blob) length = body.size;
    if (length !== void 0 && (!plainHeaders || !canAutoLength || !trySetContentLength(outgoing, status, length))) {
      if (plainHeaders) header = { ...header };
      header["Content-Length"] = length;
    }
  }
  outgoing.writeHead(status, header);
  if (body == null) outgoing.end();
  else if (typeof body === "string" || body instanceof Uint8Array) outgoing.end(body);
  else if (body instanceof Blob) outgoing.end(new Uint8Array(await body.arrayBuffer()));
  else {
    flushHeaders(outgoing);
    await writeFromReadableStream(body, outgoing)?.catch((e) => handleResponseError(e, outgoing));
  }
  outgoing[outgoingEnded]?.();
};
var isPromise = (res) => typeof res.then === "function";
var responseViaResponseObject = async (res, outgoing, options = {}) => {
  if (isPromise(res)) if (options.errorHandler) try {
    res = await res;
  } catch (err) {
    const errRes = await options.errorHandler(err);
    if (!errRes) return;
    res = errRes;
  }
  else res = await res.catch(handleFetchError);
  if (cacheKey in res) return responseViaCache(res, outgoing);
  const resHeaderRecord = buildOutgoingHttpHeaders(res.headers, res.body === null ? void 0 : defaultContentType);
  if (res.body) {
    const reader = res.body.getReader();
    const values = [];
    let done = false;
    let currentReadPromise = void 0;
    if (resHeaderRecord["transfer-encoding"] !== "chunked") {
      let maxReadCount = 2;
      for (let i = 0; i < maxReadCount; i++) {
        currentReadPromise ||= reader.read();
        const chunk = await readWithoutBlocking(currentReadPromise);
        if (!chunk) {
          if (i === 1) {
            await new Promise((resolve2) => setTimeout(resolve2));
            maxReadCount = 3;
            continue;
          }
          break;
        }
        currentReadPromise = void 0;
        if (chunk.value) values.push(chunk.value);
        if (chunk.done) {
          done = true;
          break;
        }
      }
      if (done && !("content-length" in resHeaderRecord)) resHeaderRecord["content-length"] = values.reduce((acc, value) => acc + value.length, 0);
    }
    outgoing.writeHead(res.status, resHeaderRecord);
    values.forEach((value) => {
      outgoing.write(value);
    });
    if (done) outgoing.end();
    else {
      if (values.length === 0) flushHeaders(outgoing);
      await writeFromReadableStreamDefaultReader(reader, outgoing, currentReadPromise);
    }
  } else if (resHeaderRecord[X_ALREADY_SENT]) {
  } else {
    outgoing.writeHead(res.status, resHeaderRecord);
    outgoing.end();
  }
  outgoing[outgoingEnded]?.();
};
var getRequestListener = (fetchCallback, options = {}) => {
  const autoCleanupIncoming = options.autoCleanupIncoming ?? true;
  if (options.overrideGlobalObjects !== false && global.Request !== Request$1) {
    Object.defineProperty(global, "Request", { value: Request$1 });
    Object.defineProperty(global, "Response", { value: Response$1 });
  }
  return async (incoming, outgoing) => {
    let res, req;
    let needsBodyCleanup = false;
    let closeHandlerAttached = false;
    const ensureCloseHandler = () => {
      if (!req || closeHandlerAttached) return;
      closeHandlerAttached = true;
      outgoing.on("close", makeCloseHandler(req, incoming, outgoing, needsBodyCleanup));
    };
    try {
      req = newRequest(incoming, options.hostname);
      needsBodyCleanup = autoCleanupIncoming && !(incoming.method === "GET" || incoming.method === "HEAD");
      if (needsBodyCleanup) {
        incoming[wrapBodyStream] = true;
        if (incoming instanceof Http2ServerRequest) outgoing[outgoingEnded] = () => {
          if (!incoming.readableEnded) setTimeout(() => {
            if (!incoming.readableEnded) setTimeout(() => {
              incoming.destroy();
              outgoing.destroy();
            });
          });
        };
      }
      res = fetchCallback(req, {
        incoming,
        outgoing
      });
      if (!isPromise(res) && isImmediateCacheableResponse(res)) {
        if (needsBodyCleanup && !incoming.readableEnded) outgoing.once("finish", () => {
          if (!incoming.readableEnded) drainIncoming(incoming);
        });
        return responseViaCache(res, outgoing);
      }
      ensureCloseHandler();
    } catch (e) {
      if (!res) if (options.errorHandler) {
        ensureCloseHandler();
        res = await options.errorHandler(req ? e : toRequestError(e));
        if (!res) return;
      } else if (!req) res = handleRequestError();
      else res = handleFetchError(e);
      else return handleResponseError(e, outgoing);
    }
    try {
      return await responseViaResponseObject(res, outgoing, options);
    } catch (e) {
      return handleResponseError(e, outgoing);
    }
  };
};
var CloseEvent = globalThis.CloseEvent ?? class extends Event {
  #eventInitDict;
  constructor(type, eventInitDict = {}) {
    super(type, eventInitDict);
    this.#eventInitDict = eventInitDict;
  }
  get wasClean() {
    return this.#eventInitDict.wasClean ?? false;
  }
  get code() {
    return this.#eventInitDict.code ?? 0;
  }
  get reason() {
    return this.#eventInitDict.reason ?? "";
  }
};
var ErrorEvent = globalThis.ErrorEvent ?? class extends Event {
  #eventInitDict;
  constructor(type, eventInitDict = {}) {
    super(type, eventInitDict);
    this.#eventInitDict = eventInitDict;
  }
  get message() {
    return this.#eventInitDict.message ?? "";
  }
  get filename() {
    return this.#eventInitDict.filename ?? "";
  }
  get lineno() {
    return this.#eventInitDict.lineno ?? 0;
  }
  get colno() {
    return this.#eventInitDict.colno ?? 0;
  }
  get error() {
    return this.#eventInitDict.error ?? null;
  }
};
var generateConnectionSymbol = () => /* @__PURE__ */ Symbol("connection");
var CONNECTION_SYMBOL_KEY = /* @__PURE__ */ Symbol("CONNECTION_SYMBOL_KEY");
var WAIT_FOR_WEBSOCKET_SYMBOL = /* @__PURE__ */ Symbol("WAIT_FOR_WEBSOCKET_SYMBOL");
var responseHeadersToSkip = /* @__PURE__ */ new Set([
  "connection",
  "content-length",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "sec-websocket-accept",
  "sec-websocket-extensions",
  "sec-websocket-protocol"
]);
var appendResponseHeaders = (headers, responseHeaders) => {
  if (!responseHeaders) return;
  responseHeaders.forEach((value, key) => {
    if (responseHeadersToSkip.has(key.toLowerCase())) return;
    headers.push(`${key}: ${value}`);
  });
};
var rejectUpgradeRequest = (socket, status, responseHeaders) => {
  if (socket.destroyed) return;
  const responseLines = ["Connection: close", "Content-Length: 0"];
  appendResponseHeaders(responseLines, responseHeaders);
  socket.end(`HTTP/1.1 ${status.toString()} ${STATUS_CODES[status] ?? ""}\r
${responseLines.join("\r\n")}\r
\r
`);
};
var createUpgradeRequest = (request) => {
  const protocol = request.socket.encrypted ? "https" : "http";
  const incomingUrl = request.url ?? "/";
  let url;
  if (incomingUrl[0] !== "/" && (incomingUrl.startsWith("http://") || incomingUrl.startsWith("https://"))) {
    validateRequestTarget(incomingUrl);
    url = new URL(incomingUrl).href;
  } else url = buildUrl(protocol, request.headers.host ?? "localhost", incomingUrl);
  const headers = new Headers();
  for (const key in request.headers) {
    const value = request.headers[key];
    if (!value) continue;
    headers.append(key, Array.isArray(value) ? value[0] : value);
  }
  return new Request(url, { headers });
};
var setupWebSocket = (options) => {
  const { server, fetchCallback, wss } = options;
  const waiterMap = /* @__PURE__ */ new Map();
  wss.on("connection", (ws, request) => {
    const waiter = waiterMap.get(request);
    if (waiter) {
      waiter.resolve(ws);
      waiterMap.delete(request);
    }
  });
  const rejectWaiter = (request) => {
    const waiter = waiterMap.get(request);
    if (waiter) {
      waiterMap.delete(request);
      waiter.reject(/* @__PURE__ */ new Error("WebSocket handshake aborted"));
    }
  };
  const waitForWebSocket = (request, connectionSymbol) => {
    return new Promise((resolve2, reject) => {
      waiterMap.set(request, {
        resolve: resolve2,
        reject,
        connectionSymbol
      });
    });
  };
  server.on("upgrade", async (request, socket, head) => {
    if (request.headers.upgrade?.toLowerCase() !== "websocket") return;
    const ignoreSocketError = () => {
    };
    const reclaimWaiterOnClose = () => rejectWaiter(request);
    socket.on("error", ignoreSocketError);
    socket.once("close", reclaimWaiterOnClose);
    const env = {
      incoming: request,
      outgoing: void 0,
      wss,
      [WAIT_FOR_WEBSOCKET_SYMBOL]: waitForWebSocket
    };
    let status = 400;
    let responseHeaders;
    try {
      const response = await fetchCallback(createUpgradeRequest(request), env);
      if (response instanceof Response) {
        status = response.status;
        responseHeaders = response.headers;
      }
    } catch (error) {
      if (server.listenerCount("upgrade") === 1) rejectUpgradeRequest(socket, error instanceof RequestError ? 400 : 500);
      return;
    }
    if (socket.destroyed) {
      rejectWaiter(request);
      return;
    }
    const waiter = waiterMap.get(request);
    if (!waiter || waiter.connectionSymbol !== env[CONNECTION_SYMBOL_KEY]) {
      rejectWaiter(request);
      if (server.listenerCount("upgrade") === 1) rejectUpgradeRequest(socket, status, responseHeaders);
      return;
    }
    const addResponseHeaders = (headers) => {
      appendResponseHeaders(headers, responseHeaders);
    };
    wss.on("headers", addResponseHeaders);
    try {
      wss.handleUpgrade(request, socket, head, (ws) => {
        socket.off("close", reclaimWaiterOnClose);
        socket.off("error", ignoreSocketError);
        wss.emit("connection", ws, request);
      });
    } finally {
      wss.off("headers", addResponseHeaders);
    }
  });
  server.on("close", () => {
    wss.close();
  });
};
var upgradeWebSocket = defineWebSocketHelper(async (c, events, options) => {
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket") return;
  const env = c.env;
  const waitForWebSocket = env[WAIT_FOR_WEBSOCKET_SYMBOL];
  if (!waitForWebSocket || !env.incoming) return new Response(null, { status: 500 });
  const connectionSymbol = generateConnectionSymbol();
  env[CONNECTION_SYMBOL_KEY] = connectionSymbol;
  (async () => {
    let ws;
    try {
      ws = await waitForWebSocket(env.incoming, connectionSymbol);
    } catch {
      return;
    }
    const messagesReceivedInStarting = [];
    const bufferMessage = (data, isBinary) => {
      messagesReceivedInStarting.push([data, isBinary]);
    };
    ws.on("message", bufferMessage);
    const ctx = {
      binaryType: "arraybuffer",
      close(code, reason) {
        ws.close(code, reason);
      },
      protocol: ws.protocol,
      raw: ws,
      get readyState() {
        return ws.readyState;
      },
      send(source, opts) {
        ws.send(source, { compress: opts?.compress });
      },
      url: new URL(c.req.url)
    };
    try {
      events?.onOpen?.(new Event("open"), ctx);
    } catch (e) {
      (options?.onError ?? console.error)(e);
    }
    const handleMessage = (data, isBinary) => {
      const datas = Array.isArray(data) ? data : [data];
      for (const data2 of datas) try {
        events?.onMessage?.(new MessageEvent("message", { data: isBinary ? data2 instanceof ArrayBuffer ? data2 : data2.buffer.slice(data2.byteOffset, data2.byteOffset + data2.byteLength) : typeof data2 === "string" ? data2 : Buffer.from(data2).toString("utf-8") }), ctx);
      } catch (e) {
        (options?.onError ?? console.error)(e);
      }
    };
    ws.off("message", bufferMessage);
    for (const message of messagesReceivedInStarting) handleMessage(...message);
    ws.on("message", (data, isBinary) => {
      handleMessage(data, isBinary);
    });
    ws.on("close", (code, reason) => {
      try {
        events?.onClose?.(new CloseEvent("close", {
          code,
          reason: reason.toString()
        }), ctx);
      } catch (e) {
        (options?.onError ?? console.error)(e);
      }
    });
    ws.on("error", (error) => {
      try {
        events?.onError?.(new ErrorEvent("error", { error }), ctx);
      } catch (e) {
        (options?.onError ?? console.error)(e);
      }
    });
  })();
  return new Response();
});
var createAdaptorServer = (options) => {
  const fetchCallback = options.fetch;
  const requestListener = getRequestListener(fetchCallback, {
    hostname: options.hostname,
    overrideGlobalObjects: options.overrideGlobalObjects,
    autoCleanupIncoming: options.autoCleanupIncoming
  });
  const server = (options.createServer || createServer)(options.serverOptions || {}, requestListener);
  if (options.websocket && options.websocket.server) {
    if (options.websocket.server.options.noServer !== true) throw new Error("WebSocket server must be created with { noServer: true } option");
    setupWebSocket({
      server,
      fetchCallback,
      wss: options.websocket.server
    });
  }
  return server;
};

// node_modules/hono/dist/http-exception.js
var HTTPException = class extends Error {
  res;
  status;
  /**
  * Creates an instance of `HTTPException`.
  * @param status - HTTP status code for the exception. Defaults to 500.
  * @param options - Additional options for the exception.
  */
  constructor(status = 500, options) {
    super(options?.message, { cause: options?.cause });
    this.res = options?.res;
    this.status = status;
  }
  /**
  * Returns the response object associated with the exception.
  * If a response object is not provided, a new response is created with the error message and status code.
  * @returns The response object.
  */
  getResponse() {
    if (this.res) return new Response(this.res.body, {
      status: this.status,
      headers: this.res.headers
    });
    return new Response(this.message, { status: this.status });
  }
};

// node_modules/hono/dist/request/constants.js
var GET_MATCH_RESULT = /* @__PURE__ */ Symbol();

// node_modules/hono/dist/utils/buffer.js
var bufferToFormData = (arrayBuffer, contentType2) => {
  return new Response(arrayBuffer, { headers: { "Content-Type": contentType2.replace(/^[^;]+/, (mediaType) => mediaType.toLowerCase()) } }).formData();
};

// node_modules/hono/dist/utils/body.js
var MAX_NESTED_OBJECTS = 1e4;
var isRawRequest = (request) => "headers" in request;
var parseBody = async (request, options = /* @__PURE__ */ Object.create(null)) => {
  const { all = false, dot = false } = options;
  const mediaType = (isRawRequest(request) ? request.headers : request.raw.headers).get("Content-Type")?.split(";")[0].trim().toLowerCase();
  if (mediaType === "multipart/form-data" || mediaType === "application/x-www-form-urlencoded") return parseFormData(request, {
    all,
    dot
  });
  return {};
};
async function parseFormData(request, options) {
  if (!isRawRequest(request) && request.bodyCache.formData) return convertFormDataToBodyData(await request.bodyCache.formData, options);
  const headers = isRawRequest(request) ? request.headers : request.raw.headers;
  const arrayBuffer = await request.arrayBuffer();
  const formDataPromise = bufferToFormData(arrayBuffer, headers.get("Content-Type") || "");
  if (!isRawRequest(request)) request.bodyCache.formData = formDataPromise;
  const formData = await formDataPromise;
  if (formData) return convertFormDataToBodyData(formData, options);
  return {};
}
function convertFormDataToBodyData(formData, options) {
  const form = /* @__PURE__ */ Object.create(null);
  const nestingState = { count: 0 };
  formData.forEach((value, key) => {
    if (!(options.all || key.endsWith("[]"))) form[key] = value;
    else handleParsingAllValues(form, key, value);
  });
  if (options.dot) Object.entries(form).forEach(([key, value]) => {
    if (key.includes(".")) {
      handleParsingNestedValues(form, key, value, nestingState);
      delete form[key];
    }
  });
  return form;
}
var handleParsingAllValues = (form, key, value) => {
  if (form[key] !== void 0) {
    if (Array.isArray(form[key])) form[key].push(value);
    else form[key] = [form[key], value];
  } else if (!key.endsWith("[]")) form[key] = value;
  else form[key] = [value];
};
var handleParsingNestedValues = (form, key, value, state) => {
  if (/(?:^|\.)__proto__\./.test(key)) return;
  let nestedForm = form;
  const keys = key.split(".", 34);
  if (keys.length > 33) throwNestingLimitExceeded();
  keys.forEach((key2, index) => {
    if (index === keys.length - 1) nestedForm[key2] = value;
    else {
      if (!nestedForm[key2] || typeof nestedForm[key2] !== "object" || Array.isArray(nestedForm[key2]) || nestedForm[key2] instanceof File) {
        if (state.count++ >= MAX_NESTED_OBJECTS) throwNestingLimitExceeded();
        nestedForm[key2] = /* @__PURE__ */ Object.create(null);
      }
      nestedForm = nestedForm[key2];
    }
  });
};
var throwNestingLimitExceeded = () => {
  throw new Error("Nesting limit exceeded");
};

// node_modules/hono/dist/utils/url.js
var splitPath = (path) => {
  const paths = path.split("/");
  if (paths[0] === "") paths.shift();
  return paths;
};
var splitRoutingPath = (routePath2) => {
  const { groups, path } = extractGroupsFromPath(routePath2);
  const paths = splitPath(path);
  return replaceGroupMarks(paths, groups);
};
var extractGroupsFromPath = (path) => {
  const groups = [];
  path = path.replace(/\{[^}]+\}/g, (match2, index) => {
    const mark = `@${index}`;
    groups.push([mark, match2]);
    return mark;
  });
  return {
    groups,
    path
  };
};
var replaceGroupMarks = (paths, groups) => {
  for (let i = groups.length - 1; i >= 0; i--) {
    const [mark] = groups[i];
    for (let j = paths.length - 1; j >= 0; j--) if (paths[j].includes(mark)) {
      paths[j] = paths[j].replace(mark, groups[i][1]);
      break;
    }
  }
  return paths;
};
var patternCache = {};
var getPattern = (label, next) => {
  if (label === "*") return "*";
  const match2 = label.match(/^\:([^\{\}]+)(?:\{(.+)\})?$/);
  if (match2) {
    const cacheKey2 = `${label}#${next}`;
    if (!patternCache[cacheKey2]) {
      if (match2[2]) patternCache[cacheKey2] = next && next[0] !== ":" && next[0] !== "*" ? [
        cacheKey2,
        match2[1],
        new RegExp(`^${match2[2]}(?=/${next})`)
      ] : [
        label,
        match2[1],
        new RegExp(`^${match2[2]}$`)
      ];
      else patternCache[cacheKey2] = [
        label,
        match2[1],
        true
      ];
    }
    return patternCache[cacheKey2];
  }
  return null;
};
var tryDecode = (str, decoder) => {
  try {
    return decoder(str);
  } catch {
    return str.replace(/(?:%[0-9A-Fa-f]{2})+/g, (match2) => {
      try {
        return decoder(match2);
      } catch {
        return match2;
      }
    });
  }
};
var decodeURIWithPreservedPercent = (value) => decodeURI(value.includes("%25") ? value.replace(/%25/g, "%2525") : value);
var getPath = (request) => {
  const url = request.url;
  const start = url.indexOf("/", url.indexOf(":") + 4);
  let i = start;
  for (; i < url.length; i++) {
    const charCode = url.charCodeAt(i);
    if (charCode === 37) {
      const queryIndex = url.indexOf("?", i);
      const hashIndex = url.indexOf("#", i);
      const end = queryIndex === -1 ? hashIndex === -1 ? void 0 : hashIndex : hashIndex === -1 ? queryIndex : Math.min(queryIndex, hashIndex);
      const path = url.slice(start, end);
      const decoded = tryDecode(path, decodeURIWithPreservedPercent);
      if (/%(?![0-9A-Fa-f]{2})/.test(path)) {
        const rewritten = new URL("http://localhost");
        rewritten.pathname = decoded.replace(/[\\\t\n\r]/g, encodeURIComponent);
        if (tryDecode(rewritten.pathname, decodeURIWithPreservedPercent) !== decoded) return tryDecode(path.replace(/%(?![0-9A-Fa-f]{2})/g, "%25"), decodeURIWithPreservedPercent);
      }
      return decoded;
    } else if (charCode === 63 || charCode === 35) break;
  }
  return url.slice(start, i);
};
var getPathNoStrict = (request) => {
  const result = getPath(request);
  return result.length > 1 && result.at(-1) === "/" ? result.slice(0, -1) : result;
};
var mergePath = (base, sub, ...rest) => {
  if (rest.length) sub = mergePath(sub, ...rest);
  return `${base?.[0] === "/" ? "" : "/"}${base}${sub === "/" ? "" : `${base?.at(-1) === "/" ? "" : "/"}${sub?.[0] === "/" ? sub.slice(1) : sub}`}`;
};
var checkOptionalParameter = (path) => {
  if (path.charCodeAt(path.length - 1) !== 63 || !path.includes(":")) return null;
  const segments = path.split("/");
  const results = [];
  let basePath = "";
  segments.forEach((segment) => {
    if (segment !== "" && !/\:/.test(segment)) basePath += "/" + segment;
    else if (/\:/.test(segment)) {
      if (segment.charCodeAt(segment.length - 1) === 63) {
        if (results.length === 0 && basePath === "") results.push("/");
        else results.push(basePath);
        const optionalSegment = segment.slice(0, -1);
        basePath += "/" + optionalSegment;
        results.push(basePath);
      } else basePath += "/" + segment;
    }
  });
  return results.filter((v, i, a) => a.indexOf(v) === i);
};
var tryDecodeURIComponent = (str) => str.indexOf("%") !== -1 ? tryDecode(str, decodeURIComponent_) : str;
var _decodeURI = (value) => {
  if (value.indexOf("+") !== -1) value = value.replace(/\+/g, " ");
  return tryDecodeURIComponent(value);
};
var _getQueryParam = (url, key, multiple) => {
  const hashIndex = url.indexOf("#", 8);
  if (hashIndex !== -1) url = url.slice(0, hashIndex);
  let encoded;
  if (!multiple && key && !/[%+&=]/.test(key)) {
    const queryIndex = url.indexOf("?", 8);
    let keyIndex2 = queryIndex;
    if (keyIndex2 === -1) return;
    if (!url.startsWith(key, keyIndex2 + 1)) keyIndex2 = url.indexOf(`&${key}`, keyIndex2 + 1);
    while (keyIndex2 !== -1) {
      const trailingKeyCode = url.charCodeAt(keyIndex2 + key.length + 1);
      if (trailingKeyCode === 61 || trailingKeyCode === 38 || isNaN(trailingKeyCode)) {
        if (keyIndex2 > queryIndex && /(?:^|&)[^=&]*[%+]/.test(url.slice(queryIndex + 1, keyIndex2))) break;
        if (trailingKeyCode === 61) {
          const valueIndex = keyIndex2 + key.length + 2;
          const endIndex = url.indexOf("&", valueIndex);
          return _decodeURI(url.slice(valueIndex, endIndex === -1 ? void 0 : endIndex));
        }
        return "";
      }
      keyIndex2 = url.indexOf(`&${key}`, keyIndex2 + 1);
    }
    encoded = /[%+]/.test(url);
    if (!encoded) return;
  }
  const results = /* @__PURE__ */ Object.create(null);
  encoded ??= /[%+]/.test(url);
  let keyIndex = url.indexOf("?", 8);
  while (keyIndex !== -1) {
    const nextKeyIndex = url.indexOf("&", keyIndex + 1);
    let valueIndex = url.indexOf("=", keyIndex);
    if (valueIndex > nextKeyIndex && nextKeyIndex !== -1) valueIndex = -1;
    let name = url.slice(keyIndex + 1, valueIndex === -1 ? nextKeyIndex === -1 ? void 0 : nextKeyIndex : valueIndex);
    if (encoded) name = _decodeURI(name);
    keyIndex = nextKeyIndex;
    if (name === "") continue;
    let value;
    if (valueIndex === -1) value = "";
    else {
      value = url.slice(valueIndex + 1, nextKeyIndex === -1 ? void 0 : nextKeyIndex);
      if (encoded) value = _decodeURI(value);
    }
    if (multiple) {
      if (!(results[name] && Array.isArray(results[name]))) results[name] = [];
      results[name].push(value);
    } else results[name] ??= value;
  }
  return key ? results[key] : results;
};
var getQueryParam = _getQueryParam;
var getQueryParams = (url, key) => {
  return _getQueryParam(url, key, true);
};
var decodeURIComponent_ = decodeURIComponent;

// node_modules/hono/dist/request.js
var HonoRequest = class {
  /**
  * `.raw` can get the raw Request object.
  *
  * @see {@link https://hono.dev/docs/api/request#raw}
  *
  * @example
  * ```ts
  * // For Cloudflare Workers
  * app.post('/', async (c) => {
  *   const metadata = c.req.raw.cf?.hostMetadata?
  *   ...
  * })
  * ```
  */
  raw;
  #validatedData;
  #matchResult;
  routeIndex = 0;
  /**
  * `.path` can get the pathname of the request.
  *
  * @see {@link https://hono.dev/docs/api/request#path}
  *
  * @example
  * ```ts
  * app.get('/about/me', (c) => {
  *   const pathname = c.req.path // `/about/me`
  * })
  * ```
  */
  path;
  bodyCache = {};
  constructor(request, path = "/", matchResult = [[]]) {
    this.raw = request;
    this.path = path;
    this.#matchResult = matchResult;
  }
  param(key) {
    return key ? this.#getDecodedParam(key) : this.#getAllDecodedParams();
  }
  #getDecodedParam(key) {
    const paramKey = this.#matchResult[0][this.routeIndex]?.[1][key];
    const param = this.#getParamValue(paramKey);
    return param && tryDecodeURIComponent(param);
  }
  #getAllDecodedParams() {
    const decoded = {};
    const keys = Object.keys(this.#matchResult[0][this.routeIndex]?.[1] ?? {});
    for (const key of keys) {
      const value = this.#getParamValue(this.#matchResult[0][this.routeIndex][1][key]);
      if (value !== void 0) decoded[key] = tryDecodeURIComponent(value);
    }
    return decoded;
  }
  #getParamValue(paramKey) {
    return this.#matchResult[1] ? this.#matchResult[1][paramKey] : paramKey;
  }
  query(key) {
    return getQueryParam(this.url, key);
  }
  queries(key) {
    return getQueryParams(this.url, key);
  }
  header(name) {
    if (name) return this.raw.headers.get(name) ?? void 0;
    const headerData = /* @__PURE__ */ Object.create(null);
    this.raw.headers.forEach((value, key) => {
      headerData[key] = value;
    });
    return headerData;
  }
  async parseBody(options) {
    return parseBody(this, options);
  }
  #cachedBody = (key) => {
    const { bodyCache, raw: raw2 } = this;
    const cachedBody = bodyCache[key];
    if (cachedBody) return cachedBody;
    for (const anyCachedKey in bodyCache) return bodyCache[anyCachedKey].then((body) => {
      if (anyCachedKey === "json") body = JSON.stringify(body);
      const contentType2 = anyCachedKey === "formData" ? void 0 : raw2.headers.get("content-type");
      return new Response(body, { headers: contentType2 ? { "Content-Type": contentType2 } : void 0 })[key]();
    });
    return bodyCache[key] = raw2[key]();
  };
  /**
  * `.json()` can parse Request body of type `application/json`
  *
  * @see {@link https://hono.dev/docs/api/request#json}
  *
  * @example
  * ```ts
  * app.post('/entry', async (c) => {
  *   const body = await c.req.json()
  * })
  * ```
  */
  json() {
    return this.#cachedBody("text").then((text) => JSON.parse(text));
  }
  /**
  * `.text()` can parse Request body of type `text/plain`
  *
  * @see {@link https://hono.dev/docs/api/request#text}
  *
  * @example
  * ```ts
  * app.post('/entry', async (c) => {
  *   const body = await c.req.text()
  * })
  * ```
  */
  text() {
    return this.#cachedBody("text");
  }
  /**
  * `.arrayBuffer()` parse Request body as an `ArrayBuffer`
  *
  * @see {@link https://hono.dev/docs/api/request#arraybuffer}
  *
  * @example
  * ```ts
  * app.post('/entry', async (c) => {
  *   const body = await c.req.arrayBuffer()
  * })
  * ```
  */
  arrayBuffer() {
    return this.#cachedBody("arrayBuffer");
  }
  /**
  * `.bytes()` parses the request body as a `Uint8Array`.
  *
  * @see {@link https://hono.dev/docs/api/request#bytes}
  *
  * @example
  * ```ts
  * app.post('/entry', async (c) => {
  *   const body = await c.req.bytes()
  * })
  * ```
  */
  bytes() {
    return this.#cachedBody("arrayBuffer").then((buffer) => new Uint8Array(buffer));
  }
  /**
  * Parses the request body as a `Blob`.
  * @example
  * ```ts
  * app.post('/entry', async (c) => {
  *   const body = await c.req.blob();
  * });
  * ```
  * @see https://hono.dev/docs/api/request#blob
  */
  blob() {
    return this.#cachedBody("blob");
  }
  /**
  * Parses the request body as `FormData`.
  * @example
  * ```ts
  * app.post('/entry', async (c) => {
  *   const body = await c.req.formData();
  * });
  * ```
  * @see https://hono.dev/docs/api/request#formdata
  */
  formData() {
    return this.#cachedBody("formData");
  }
  /**
  * Adds validated data to the request.
  *
  * @param target - The target of the validation.
  * @param data - The validated data to add.
  */
  addValidatedData(target, data) {
    (this.#validatedData ??= {})[target] = data;
  }
  valid(target) {
    return this.#validatedData?.[target];
  }
  /**
  * `.url` can get the request url strings.
  *
  * @see {@link https://hono.dev/docs/api/request#url}
  *
  * @example
  * ```ts
  * app.get('/about/me', (c) => {
  *   const url = c.req.url // `http://localhost:8787/about/me`
  *   ...
  * })
  * ```
  */
  get url() {
    return this.raw.url;
  }
  /**
  * `.method` can get the method name of the request.
  *
  * @see {@link https://hono.dev/docs/api/request#method}
  *
  * @example
  * ```ts
  * app.get('/about/me', (c) => {
  *   const method = c.req.method // `GET`
  * })
  * ```
  */
  get method() {
    return this.raw.method;
  }
  get [GET_MATCH_RESULT]() {
    return this.#matchResult;
  }
  /**
  * `.matchedRoutes` can return a matched route in the handler
  *
  * @deprecated
  *
  * Use matchedRoutes helper defined in "hono/route" instead.
  *
  * @see {@link https://hono.dev/docs/api/request#matchedroutes}
  *
  * @example
  * ```ts
  * app.use('*', async function logger(c, next) {
  *   await next()
  *   c.req.matchedRoutes.forEach(({ handler, method, path }, i) => {
  *     const name = handler.name || (handler.length < 2 ? '[handler]' : '[middleware]')
  *     console.log(
  *       method,
  *       ' ',
  *       path,
  *       ' '.repeat(Math.max(10 - path.length, 0)),
  *       name,
  *       i === c.req.routeIndex ? '<- respond from here' : ''
  *     )
  *   })
  * })
  * ```
  */
  get matchedRoutes() {
    return this.#matchResult[0].map(([[, route]]) => route);
  }
  /**
  * `.routePath` can retrieve the path registered within the handler
  *
  * @deprecated
  *
  * Use routePath helper defined in "hono/route" instead.
  *
  * @see {@link https://hono.dev/docs/api/request#routepath}
  *
  * @example
  * ```ts
  * app.get('/posts/:id', (c) => {
  *   return c.json({ path: c.req.routePath })
  * })
  * ```
  */
  get routePath() {
    return this.#matchResult[0].map(([[, route]]) => route)[this.routeIndex].path;
  }
};

// node_modules/hono/dist/utils/html.js
var HtmlEscapedCallbackPhase = {
  Stringify: 1,
  BeforeStream: 2,
  Stream: 3
};
var raw = (value, callbacks) => {
  const escapedString = new String(value);
  escapedString.isEscaped = true;
  escapedString.callbacks = callbacks;
  return escapedString;
};
var resolveCallback = async (str, phase, preserveCallbacks, context, buffer) => {
  if (typeof str === "object" && !(str instanceof String)) {
    if (!(str instanceof Promise)) str = str.toString();
    if (str instanceof Promise) str = await str;
  }
  const callbacks = str.callbacks;
  if (!callbacks?.length) return Promise.resolve(str);
  if (buffer) buffer[0] += str;
  else buffer = [str];
  const resStr = Promise.all(callbacks.map((c) => c({
    phase,
    buffer,
    context
  }))).then((res) => Promise.all(res.filter(Boolean).map((str2) => resolveCallback(str2, phase, false, context, buffer))).then(() => buffer[0]));
  if (preserveCallbacks) return raw(await resStr, callbacks);
  else return resStr;
};

// node_modules/hono/dist/context.js
var TEXT_PLAIN = "text/plain; charset=UTF-8";
var setDefaultContentType = (contentType2, headers) => {
  return {
    "Content-Type": contentType2,
    ...headers
  };
};
var createResponseInstance = (body, init) => new Response(body, init);
var Context = class {
  #rawRequest;
  #req;
  /**
  * `.env` can get bindings (environment variables, secrets, KV namespaces, D1 database, R2 bucket etc.) in Cloudflare Workers.
  *
  * @see {@link https://hono.dev/docs/api/context#env}
  *
  * @example
  * ```ts
  * // Environment object for Cloudflare Workers
  * app.get('*', async c => {
  *   const counter = c.env.COUNTER
  * })
  * ```
  */
  env = {};
  #var;
  finalized = false;
  /**
  * `.error` can get the error object from the middleware if the Handler throws an error.
  *
  * @see {@link https://hono.dev/docs/api/context#error}
  *
  * @example
  * ```ts
  * app.use('*', async (c, next) => {
  *   await next()
  *   if (c.error) {
  *     // do something...
  *   }
  * })
  * ```
  */
  error;
  #status;
  #executionCtx;
  #res;
  #layout;
  #renderer;
  #notFoundHandler;
  #preparedHeaders;
  #matchResult;
  #path;
  /**
  * Creates an instance of the Context class.
  *
  * @param req - The Request object.
  * @param options - Optional configuration options for the context.
  */
  constructor(req, options) {
    this.#rawRequest = req;
    if (options) {
      this.#executionCtx = options.executionCtx;
      this.env = options.env;
      this.#notFoundHandler = options.notFoundHandler;
      this.#path = options.path;
      this.#matchResult = options.matchResult;
    }
  }
  /**
  * `.req` is the instance of {@link HonoRequest}.
  */
  get req() {
    this.#req ??= new HonoRequest(this.#rawRequest, this.#path, this.#matchResult);
    return this.#req;
  }
  /**
  * @see {@link https://hono.dev/docs/api/context#event}
  * The FetchEvent associated with the current request.
  *
  * @throws Will throw an error if the context does not have a FetchEvent.
  */
  get event() {
    if (this.#executionCtx && "respondWith" in this.#executionCtx) return this.#executionCtx;
    else throw Error("This context has no FetchEvent");
  }
  /**
  * @see {@link https://hono.dev/docs/api/context#executionctx}
  * The ExecutionContext associated with the current request.
  *
  * @throws Will throw an error if the context does not have an ExecutionContext.
  */
  get executionCtx() {
    if (this.#executionCtx) return this.#executionCtx;
    else throw Error("This context has no ExecutionContext");
  }
  /**
  * @see {@link https://hono.dev/docs/api/context#res}
  * The Response object for the current request.
  */
  get res() {
    return this.#res ||= createResponseInstance(null, { headers: this.#preparedHeaders ??= new Headers() });
  }
  /**
  * Sets the Response object for the current request.
  *
  * @param _res - The Response object to set.
  */
  set res(_res) {
    if (this.#res && _res) {
      _res = createResponseInstance(_res.body, _res);
      for (const [k, v] of this.#res.headers.entries()) {
        if (k === "content-type") continue;
        if (k === "set-cookie") {
          const cookies = this.#res.headers.getSetCookie();
          _res.headers.delete("set-cookie");
          for (const cookie of cookies) _res.headers.append("set-cookie", cookie);
        } else _res.headers.set(k, v);
      }
    }
    this.#res = _res;
    this.finalized = true;
  }
  /**
  * `.render()` can create a response within a layout.
  *
  * @see {@link https://hono.dev/docs/api/context#render-setrenderer}
  *
  * @example
  * ```ts
  * app.get('/', (c) => {
  *   return c.render('Hello!')
  * })
  * ```
  */
  render = (...args) => {
    this.#renderer ??= (content) => this.html(content);
    return this.#renderer(...args);
  };
  /**
  * Sets the layout for the response.
  *
  * @param layout - The layout to set.
  * @returns The layout function.
  */
  setLayout = (layout) => this.#layout = layout;
  /**
  * Gets the current layout for the response.
  *
  * @returns The current layout function.
  */
  getLayout = () => this.#layout;
  /**
  * `.setRenderer()` can set the layout in the custom middleware.
  *
  * @see {@link https://hono.dev/docs/api/context#render-setrenderer}
  *
  * @example
  * ```tsx
  * app.use('*', async (c, next) => {
  *   c.setRenderer((content) => {
  *     return c.html(
  *       <html>
  *         <body>
  *           <p>{content}</p>
  *         </body>
  *       </html>
  *     )
  *   })
  *   await next()
  * })
  * ```
  */
  setRenderer = (renderer) => {
    this.#renderer = renderer;
  };
  /**
  * `.header()` can set headers.
  *
  * @see {@link https://hono.dev/docs/api/context#header}
  *
  * @example
  * ```ts
  * app.get('/welcome', (c) => {
  *   // Set headers
  *   c.header('X-Message', 'Hello!')
  *   c.header('Content-Type', 'text/plain')
  *
  *   // Append multiple headers using the append option (e.g. Vary)
  *   c.header('Vary', 'Accept-Encoding', { append: true })
  *   c.header('Vary', 'User-Agent', { append: true })
  *
  *   return c.body('Thank you for coming')
  * })
  * ```
  */
  header = (name, value, options) => {
    if (this.finalized && !this.#res.bodyUsed) this.#res = createResponseInstance(this.#res.body, this.#res);
    const headers = this.#res ? this.#res.headers : this.#preparedHeaders ??= new Headers();
    if (value === void 0) headers.delete(name);
    else if (options?.append) headers.append(name, value);
    else headers.set(name, value);
  };
  status = (status) => {
    this.#status = status;
  };
  /**
  * `.set()` can set the value specified by the key.
  *
  * @see {@link https://hono.dev/docs/api/context#set-get}
  *
  * @example
  * ```ts
  * app.use('*', async (c, next) => {
  *   c.set('message', 'Hono is hot!!')
  *   await next()
  * })
  * ```
  */
  set = (key, value) => {
    this.#var ??= /* @__PURE__ */ new Map();
    this.#var.set(key, value);
  };
  /**
  * `.get()` can use the value specified by the key.
  *
  * @see {@link https://hono.dev/docs/api/context#set-get}
  *
  * @example
  * ```ts
  * app.get('/', (c) => {
  *   const message = c.get('message')
  *   return c.text(`The message is "${message}"`)
  * })
  * ```
  */
  get = (key) => {
    return this.#var ? this.#var.get(key) : void 0;
  };
  /**
  * `.var` can access the value of a variable.
  *
  * @see {@link https://hono.dev/docs/api/context#var}
  *
  * @example
  * ```ts
  * const result = c.var.client.oneMethod()
  * ```
  */
  get var() {
    if (!this.#var) return {};
    return Object.fromEntries(this.#var);
  }
  #newResponse(data, arg, headers) {
    let responseHeaders = this.#res ? new Headers(this.#res.headers) : this.#preparedHeaders;
    if (typeof arg === "object" && arg.headers) {
      responseHeaders ??= new Headers();
      for (const [key, value] of new Headers(arg.headers)) if (key === "set-cookie") responseHeaders.append(key, value);
      else responseHeaders.set(key, value);
    }
    if (headers) {
      if (!responseHeaders) {
        let count = 0;
        for (const k in headers) if (++count > 1 || typeof headers[k] !== "string") {
          responseHeaders = new Headers();
          break;
        }
      }
      if (responseHeaders) for (const k in headers) {
        const v = headers[k];
        if (typeof v === "string") responseHeaders.set(k, v);
        else {
          responseHeaders.delete(k);
          for (const v2 of v) responseHeaders.append(k, v2);
        }
      }
    }
    const status = typeof arg === "number" ? arg : arg?.status ?? this.#status;
    return createResponseInstance(data, {
      status,
      headers: responseHeaders ?? headers
    });
  }
  newResponse = (...args) => this.#newResponse(...args);
  /**
  * `.body()` can return the HTTP response.
  * You can set headers with `.header()` and set HTTP status code with `.status`.
  * This can also be set in `.text()`, `.json()` and so on.
  *
  * @see {@link https://hono.dev/docs/api/context#body}
  *
  * @example
  * ```ts
  * app.get('/welcome', (c) => {
  *   // Set headers
  *   c.header('X-Message', 'Hello!')
  *   c.header('Content-Type', 'text/plain')
  *   // Set HTTP status code
  *   c.status(201)
  *
  *   // Return the response body
  *   return c.body('Thank you for coming')
  * })
  * ```
  */
  body = (data, arg, headers) => this.#newResponse(data, arg, headers);
  /**
  * `.text()` can render text as `Content-Type:text/plain`.
  *
  * @see {@link https://hono.dev/docs/api/context#text}
  *
  * @example
  * ```ts
  * app.get('/say', (c) => {
  *   return c.text('Hello!')
  * })
  * ```
  */
  text = (text, arg, headers) => {
    return !this.#preparedHeaders && !this.#status && !arg && !headers && !this.finalized ? new Response(text) : this.#newResponse(text, arg, setDefaultContentType(TEXT_PLAIN, headers));
  };
  /**
  * `.json()` can render JSON as `Content-Type:application/json`.
  *
  * @see {@link https://hono.dev/docs/api/context#json}
  *
  * @example
  * ```ts
  * app.get('/api', (c) => {
  *   return c.json({ message: 'Hello!' })
  * })
  * ```
  */
  json = (object, arg, headers) => {
    return this.#newResponse(JSON.stringify(object), arg, setDefaultContentType("application/json", headers));
  };
  html = (html2, arg, headers) => {
    const res = (html3) => this.#newResponse(html3, arg, setDefaultContentType("text/html; charset=UTF-8", headers));
    return typeof html2 === "object" ? resolveCallback(html2, HtmlEscapedCallbackPhase.Stringify, false, {}).then(res) : res(html2);
  };
  /**
  * `.redirect()` can Redirect, default status code is 302.
  *
  * @see {@link https://hono.dev/docs/api/context#redirect}
  *
  * @example
  * ```ts
  * app.get('/redirect', (c) => {
  *   return c.redirect('/')
  * })
  * app.get('/redirect-permanently', (c) => {
  *   return c.redirect('/', 301)
  * })
  * ```
  */
  redirect = (location, status) => {
    const locationString = String(location);
    this.header("Location", !/[^\x00-\xFF]/.test(locationString) ? locationString : encodeURI(locationString));
    return this.newResponse(null, status ?? 302);
  };
  /**
  * `.notFound()` can return the Not Found Response.
  *
  * @see {@link https://hono.dev/docs/api/context#notfound}
  *
  * @example
  * ```ts
  * app.get('/notfound', (c) => {
  *   return c.notFound()
  * })
  * ```
  */
  notFound = () => {
    this.#notFoundHandler ??= () => createResponseInstance();
    return this.#notFoundHandler(this);
  };
};

// node_modules/hono/dist/compose.js
var compose = (middleware, onError, onNotFound) => {
  return (context, next) => {
    let index = -1;
    return dispatch(0);
    async function dispatch(i) {
      if (i <= index) throw new Error("next() called multiple times");
      index = i;
      let res;
      let isError = false;
      let handler;
      if (middleware[i]) {
        handler = middleware[i][0][0];
        context.req.routeIndex = i;
      } else handler = i === middleware.length && next || void 0;
      if (handler) try {
        res = await handler(context, () => dispatch(i + 1));
      } catch (err) {
        if (err instanceof Error && onError) {
          context.error = err;
          res = await onError(err, context);
          isError = true;
        } else throw err;
      }
      else if (context.finalized === false && onNotFound) res = await onNotFound(context);
      if (res && (context.finalized === false || isError)) context.res = res;
      return context;
    }
  };
};

// node_modules/hono/dist/helper/route/index.js
var matchedRoutes = (c) => c.req[GET_MATCH_RESULT][0].map(([[, route]]) => route);
var routePath = (c, index) => matchedRoutes(c).at(index ?? c.req.routeIndex)?.path ?? "";

// node_modules/hono/dist/router.js
var METHODS = [
  "get",
  "post",
  "put",
  "delete",
  "options",
  "patch",
  "query"
];
var MESSAGE_MATCHER_IS_ALREADY_BUILT = "Can not add a route since the matcher is already built.";
var UnsupportedPathError = class extends Error {
};

// node_modules/hono/dist/utils/constants.js
var COMPOSED_HANDLER = "__COMPOSED_HANDLER";

// node_modules/hono/dist/utils/mount.js
var countTrailingSlashes = (path) => {
  let index = path.length;
  while (index > 0 && path.charCodeAt(index - 1) === 47) index--;
  return path.length - index;
};
var getPathPrefixLength = (c, pathPrefix, routePath2) => {
  if (!/[:*]/.test(pathPrefix)) return pathPrefix.length;
  const path = c.req.path;
  const matchResult = c.req[GET_MATCH_RESULT];
  const paramNames = /* @__PURE__ */ new Set();
  let length = 0;
  for (const part of splitRoutingPath(pathPrefix)) {
    if (part[0] === ":" && part.endsWith("}?")) throw new Error(`mount(): Optional regular expression parameters are not supported in "${routePath2}".`);
    const pattern = getPattern(part);
    if (pattern && pattern !== "*") {
      const name = pattern[1];
      if (paramNames.has(name)) throw new Error(`mount(): Duplicate path parameter "${name}" in "${routePath2}".`);
      paramNames.add(name);
    }
    if (pattern && pattern !== "*" && pattern[2] !== true) {
      const value = matchResult.length === 2 ? matchResult[1][matchResult[0][c.req.routeIndex][1][pattern[1]]] : matchResult[0][c.req.routeIndex][1][pattern[1]];
      length += value.length + 1;
    } else if (pattern || part.endsWith("*")) {
      const end = path.indexOf("/", length + 1);
      length = end === -1 ? path.length : end;
    } else length += part.length + 1;
  }
  return length;
};
var createMountedRequest = (c, pathPrefix, routePath2) => {
  if (/[^/]\*$/.test(routePath2)) throw new Error(`mount(): Wildcard must follow "/" in "${routePath2}".`);
  const prefixLength = getPathPrefixLength(c, pathPrefix, routePath2);
  const path = c.req.path.slice(prefixLength) || "/";
  if (prefixLength > c.req.path.length || path[0] !== "/" || /\/(?:\.|%2e){1,2}(?:\/|$)/i.test(path)) throw new HTTPException(400, { message: "Invalid mounted path" });
  const rawUrl = c.req.raw.url;
  if (/^[^/?#]*\/\/[^/?#\\]*[?#\\]/.test(rawUrl)) throw new HTTPException(400, { message: "Invalid mounted path" });
  const rawPathEnd = rawUrl.search(/[?#]/);
  const rawTrailingSlashes = countTrailingSlashes(rawPathEnd === -1 ? rawUrl : rawUrl.slice(0, rawPathEnd));
  if (rawTrailingSlashes > 1 && countTrailingSlashes(c.req.path) === rawTrailingSlashes - 1) throw new HTTPException(400, { message: "Invalid mounted path" });
  const url = new URL(rawUrl);
  url.pathname = path.replace(/[\\\t\n\r]/g, encodeURIComponent);
  if (path.includes("%")) {
  }
  return new Request(url, c.req.raw);
};

// node_modules/hono/dist/hono-base.js
var notFoundHandler = (c) => {
  return c.text("404 Not Found", 404);
};
var errorHandler = (err, c) => {
  if ("getResponse" in err) {
    const res = err.getResponse();
    return c.newResponse(res.body, res);
  }
  console.error(err);
  return c.text("Internal Server Error", 500);
};
var Hono = class Hono2 {
  get;
  post;
  put;
  delete;
  options;
  patch;
  query;
  all;
  on;
  use;
  router;
  getPath;
  _basePath = "/";
  #path = "/";
  routes = [];
  constructor(options = {}) {
    [...METHODS, "all"].forEach((method) => {
      this[method] = (args1, ...args) => {
        const methodName = method.toUpperCase();
        if (typeof args1 === "string") this.#path = args1;
        else this.#addRoute(methodName, this.#path, args1);
        args.forEach((handler) => {
          this.#addRoute(methodName, this.#path, handler);
        });
        return this;
      };
    });
    this.on = (method, path, ...handlers) => {
      for (const p of [path].flat()) {
        this.#path = p;
        for (const m of [method].flat()) {
          const methodName = m.toUpperCase();
          for (const handler of handlers) this.#addRoute(methodName, this.#path, handler);
        }
      }
      return this;
    };
    this.use = (arg1, ...handlers) => {
      if (typeof arg1 === "string") this.#path = arg1;
      else {
        this.#path = "*";
        handlers.unshift(arg1);
      }
      handlers.forEach((handler) => {
        this.#addRoute("ALL", this.#path, handler);
      });
      return this;
    };
    const { strict, ...optionsWithoutStrict } = options;
    Object.assign(this, optionsWithoutStrict);
    this.getPath = strict ?? true ? options.getPath ?? getPath : getPathNoStrict;
  }
  #clone() {
    const clone = new Hono2({
      router: this.router,
      getPath: this.getPath
    });
    clone.errorHandler = this.errorHandler;
    clone.#notFoundHandler = this.#notFoundHandler;
    clone.routes = this.routes;
    return clone;
  }
  #notFoundHandler = notFoundHandler;
  errorHandler = errorHandler;
  /**
  * `.route()` allows grouping other Hono instance in routes.
  *
  * @see {@link https://hono.dev/docs/api/routing#grouping}
  *
  * @param {string} path - base Path
  * @param {Hono} app - other Hono instance
  * @returns {Hono} routed Hono instance
  *
  * @example
  * ```ts
  * const app = new Hono()
  * const app2 = new Hono()
  *
  * app2.get("/user", (c) => c.text("user"))
  * app.route("/api", app2) // GET /api/user
  * ```
  */
  route(path, app) {
    const subApp = this.basePath(path);
    app.routes.map((r) => {
      let handler;
      if (app.errorHandler === errorHandler) handler = r.handler;
      else {
        handler = async (c, next) => (await compose([], app.errorHandler)(c, () => r.handler(c, next))).res;
        handler[COMPOSED_HANDLER] = r.handler;
      }
      subApp.#addRoute(r.method, r.path, handler, r.basePath);
    });
    return this;
  }
  /**
  * `.basePath()` allows base paths to be specified.
  *
  * @see {@link https://hono.dev/docs/api/routing#base-path}
  *
  * @param {string} path - base Path
  * @returns {Hono} changed Hono instance
  *
  * @example
  * ```ts
  * const api = new Hono().basePath('/api')
  * ```
  */
  basePath(path) {
    const subApp = this.#clone();
    subApp._basePath = mergePath(this._basePath, path);
    return subApp;
  }
  /**
  * `.onError()` handles an error and returns a customized Response.
  *
  * @see {@link https://hono.dev/docs/api/hono#error-handling}
  *
  * @param {ErrorHandler} handler - request Handler for error
  * @returns {Hono} changed Hono instance
  *
  * @example
  * ```ts
  * app.onError((err, c) => {
  *   console.error(`${err}`)
  *   return c.text('Custom Error Message', 500)
  * })
  * ```
  */
  onError = (handler) => {
    this.errorHandler = handler;
    return this;
  };
  /**
  * `.notFound()` allows you to customize a Not Found Response.
  *
  * @see {@link https://hono.dev/docs/api/hono#not-found}
  *
  * @param {NotFoundHandler} handler - request handler for not-found
  * @returns {Hono} changed Hono instance
  *
  * @example
  * ```ts
  * app.notFound((c) => {
  *   return c.text('Custom 404 Message', 404)
  * })
  * ```
  */
  notFound = (handler) => {
    this.#notFoundHandler = handler;
    return this;
  };
  /**
  * `.mount()` allows you to mount applications built with other frameworks into your Hono application.
  *
  * @deprecated Use `mount()` from `hono/mount` instead. `.mount()` will be removed in v5.
  *
  * @see {@link https://hono.dev/docs/api/hono#mount}
  *
  * @param {string} path - base Path
  * @param {Function} applicationHandler - other Request Handler
  * @param {MountOptions} [options] - options of `.mount()`
  * @returns {Hono} mounted Hono instance
  * @throws {Error} If automatic request rewriting encounters duplicate path parameter names or an optional regular expression parameter.
  * @throws {HTTPException} With status 400 if automatic request rewriting cannot safely preserve the routed path.
  *
  * @example
  * ```ts
  * import { Router as IttyRouter } from 'itty-router'
  * import { Hono } from 'hono'
  * // Create itty-router application
  * const ittyRouter = IttyRouter()
  * // GET /itty-router/hello
  * ittyRouter.get('/hello', () => new Response('Hello from itty-router'))
  *
  * const app = new Hono()
  * app.mount('/itty-router', ittyRouter.handle)
  * ```
  *
  * @example
  * ```ts
  * const app = new Hono()
  * // Send the request to another application without modification.
  * app.mount('/app', anotherApp, {
  *   replaceRequest: (req) => req,
  * })
  * ```
  */
  mount(path, applicationHandler, options) {
    let replaceRequest;
    let optionHandler;
    if (options) {
      if (typeof options === "function") optionHandler = options;
      else {
        optionHandler = options.optionHandler;
        if (options.replaceRequest === false) replaceRequest = (request) => request;
        else replaceRequest = options.replaceRequest;
      }
    }
    const getOptions = optionHandler ? (c) => {
      const options2 = optionHandler(c);
      return Array.isArray(options2) ? options2 : [options2];
    } : (c) => {
      let executionContext = void 0;
      try {
        executionContext = c.executionCtx;
      } catch {
      }
      return [c.env, executionContext];
    };
    const defaultReplaceRequest = (c) => {
      const mountedRoutePath = routePath(c);
      return createMountedRequest(c, mountedRoutePath.replace(/\/?\*$/, ""), mountedRoutePath);
    };
    const handler = async (c, next) => {
      const res = await applicationHandler(replaceRequest ? replaceRequest(c.req.raw) : defaultReplaceRequest(c), ...getOptions(c));
      if (res) return res;
      await next();
    };
    this.#addRoute("ALL", mergePath(path, "*"), handler);
    return this;
  }
  #addRoute(method, path, handler, baseRoutePath) {
    path = mergePath(this._basePath, path);
    const r = {
      basePath: baseRoutePath !== void 0 ? mergePath(this._basePath, baseRoutePath) : this._basePath,
      path,
      method,
      handler
    };
    this.router.add(method, path, [handler, r]);
    this.routes.push(r);
  }
  #handleError(err, c) {
    if (err instanceof Error) return this.errorHandler(err, c);
    throw err;
  }
  #dispatch(request, executionCtx, env, method) {
    if (method === "HEAD") return (async () => new Response(null, await this.#dispatch(request, executionCtx, env, "GET")))();
    const path = this.getPath(request, { env });
    const matchResult = this.router.match(method, path);
    const c = new Context(request, {
      path,
      matchResult,
      env,
      executionCtx,
      notFoundHandler: this.#notFoundHandler
    });
    if (matchResult[0].length === 1) {
      let res;
      try {
        res = matchResult[0][0][0][0](c, async () => {
          c.res = await this.#notFoundHandler(c);
        });
      } catch (err) {
        return this.#handleError(err, c);
      }
      return res instanceof Promise ? res.then((resolved) => resolved || (c.finalized ? c.res : this.#notFoundHandler(c))).catch((err) => this.#handleError(err, c)) : res ?? this.#notFoundHandler(c);
    }
    const composed = compose(matchResult[0], this.errorHandler, this.#notFoundHandler);
    return (async () => {
      try {
        const context = await composed(c);
        if (!context.finalized) throw new Error("Context is not finalized. Did you forget to return a Response object or `await next()`?");
        return context.res;
      } catch (err) {
        return this.#handleError(err, c);
      }
    })();
  }
  /**
  * `.fetch()` will be entry point of your app.
  *
  * @see {@link https://hono.dev/docs/api/hono#fetch}
  *
  * @param {Request} request - request Object of request
  * @param {Env} env - env Object
  * @param {ExecutionContext} executionCtx - context of execution
  * @returns {Response | Promise<Response>} response of request
  *
  */
  fetch = (request, ...rest) => {
    return this.#dispatch(request, rest[1], rest[0], request.method);
  };
  /**
  * `.request()` is a useful method for testing.
  * You can pass a URL or pathname to send a GET request.
  * app will return a Response object.
  * ```ts
  * test('GET /hello is ok', async () => {
  *   const res = await app.request('/hello')
  *   expect(res.status).toBe(200)
  * })
  * ```
  * @see https://hono.dev/docs/api/hono#request
  */
  request = (input, requestInit, Env, executionCtx) => {
    if (input instanceof Request) return this.fetch(requestInit ? new Request(input, requestInit) : input, Env, executionCtx);
    input = input.toString();
    return this.fetch(new Request(/^https?:\/\//.test(input) ? input : `http://localhost${mergePath("/", input)}`, requestInit), Env, executionCtx);
  };
  /**
  * `.fire()` automatically adds a global fetch event listener.
  * This can be useful for environments that adhere to the Service Worker API, such as non-ES module Cloudflare Workers.
  * @deprecated
  * Use `fire` from `hono/service-worker` instead.
  * ```ts
  * import { Hono } from 'hono'
  * import { fire } from 'hono/service-worker'
  *
  * const app = new Hono()
  * // ...
  * fire(app)
  * ```
  * @see https://hono.dev/docs/api/hono#fire
  * @see https://developer.mozilla.org/en-US/docs/Web/API/Service_Worker_API
  * @see https://developers.cloudflare.com/workers/reference/migrate-to-module-workers/
  */
  fire = () => {
    addEventListener("fetch", (event) => {
      event.respondWith(this.#dispatch(event.request, event, void 0, event.request.method));
    });
  };
};

// node_modules/hono/dist/router/utils.js
var createNullObject = () => /* @__PURE__ */ Object.create(null);

// node_modules/hono/dist/router/reg-exp-router/matcher.js
var emptyParam = [];
function match(method, path) {
  const matchers = this.buildAllMatchers();
  const match2 = ((method2, path2) => {
    const matcher = matchers[method2] || matchers["ALL"];
    const staticMatch = matcher[2][path2];
    if (staticMatch) return staticMatch;
    const match3 = path2.match(matcher[0]);
    if (!match3) return [[], emptyParam];
    const index = match3.indexOf("", 1);
    return [matcher[1][index], match3];
  });
  this.match = match2;
  return match2(method, path);
}

// node_modules/hono/dist/router/reg-exp-router/node.js
var LABEL_REG_EXP_STR = "[^/]+";
var ONLY_WILDCARD_REG_EXP_STR = "[^]*";
var TAIL_WILDCARD_REG_EXP_STR = "(?:|/[^]*)";
var PATH_ERROR = /* @__PURE__ */ Symbol();
var regExpMetaChars = /* @__PURE__ */ new Set(".\\+*[^]$()");
function compareKey(a, b) {
  if (a.length === 1) return b.length === 1 ? a < b ? -1 : 1 : -1;
  if (b.length === 1) return 1;
  if (a === "[^]*" || a === "(?:|/[^]*)") return b === "[^]*" ? -1 : 1;
  else if (b === "[^]*" || b === "(?:|/[^]*)") return -1;
  if (a === "[^/]+") return 1;
  else if (b === "[^/]+") return -1;
  return a.length === b.length ? a < b ? -1 : 1 : b.length - a.length;
}
var Node = class Node2 {
  #index;
  #varIndex;
  #children = createNullObject();
  insert(tokens, index, paramMap, context, keys) {
    let node = this;
    for (let i = 0, len = tokens.length; i < len; i++) {
      const token = tokens[i];
      const pattern = token.length === 1 ? token === "*" ? i === len - 1 ? [
        "",
        "",
        ONLY_WILDCARD_REG_EXP_STR
      ] : [
        "",
        "",
        LABEL_REG_EXP_STR
      ] : null : token === "/*" ? [
        "",
        "",
        TAIL_WILDCARD_REG_EXP_STR
      ] : token.match(/^\:([^\{\}]+)(?:\{(.+)\})?$/);
      let nextNode;
      if (pattern) {
        const name = pattern[1];
        let regexpStr = pattern[2] || "[^/]+";
        if (name && pattern[2]) {
          if (new RegExp(regexpStr).test("")) throw PATH_ERROR;
          regexpStr = regexpStr.replace(/^\((?!\?:)(?=[^)]+\)$)/, "(?:");
          if (/\((?!\?:)/.test(regexpStr)) throw PATH_ERROR;
          if (regexpStr.length === 1 && regExpMetaChars.has(regexpStr)) throw PATH_ERROR;
        }
        keys.push(regexpStr);
        nextNode = node.#children[regexpStr];
        if (!nextNode) {
          if (regexpStr !== "[^]*" && regexpStr !== "(?:|/[^]*)") {
            for (const k in node.#children) if ((regexpStr.length > 1 || k.length > 1) && k !== "[^]*" && k !== "(?:|/[^]*)") throw PATH_ERROR;
          }
          nextNode = node.#children[regexpStr] = new Node2();
        }
        if (name !== "") {
          nextNode.#varIndex ??= context.varIndex++;
          paramMap.push([name, nextNode.#varIndex]);
        }
      } else {
        keys.push(token);
        nextNode = node.#children[token];
        if (!nextNode) {
          for (const k in node.#children) if (k.length > 1 && k !== "[^]*" && k !== "(?:|/[^]*)") throw PATH_ERROR;
          nextNode = node.#children[token] = new Node2();
        }
      }
      node = nextNode;
    }
    if (node.#index !== void 0) throw PATH_ERROR;
    node.#index = index;
  }
  buildRegExpStr() {
    const strList = Object.keys(this.#children).sort(compareKey).map((k) => {
      const c = this.#children[k];
      const childStr = c.buildRegExpStr();
      return childStr === "" ? "" : (typeof c.#varIndex === "number" ? `(${k})@${c.#varIndex}` : regExpMetaChars.has(k) ? `\\${k}` : k) + childStr;
    }).filter(Boolean);
    if (typeof this.#index === "number" && this.#index !== -1) strList.unshift(`#${this.#index}`);
    if (strList.length === 0) return "";
    if (strList.length === 1) return strList[0];
    return "(?:" + strList.join("|") + ")";
  }
};

// node_modules/hono/dist/router/reg-exp-router/trie.js
var Trie = class {
  #context = { varIndex: 0 };
  #root = new Node();
  #index = 0;
  paths = createNullObject();
  insert(path, isStatic) {
    const keys = [];
    if (isStatic) {
      this.#root.insert(path.split(""), -1, [], this.#context, keys);
      this.paths[path] = [
        -1,
        [],
        keys
      ];
      return;
    }
    const paramAssoc = [];
    const groups = [];
    let markedPath = path;
    for (let i = 0; ; ) {
      let replaced = false;
      markedPath = markedPath.replace(/\{(?:\{[\d,]+\}|[^}])+\}/g, (m) => {
        const mark = `@\\${i}`;
        groups[i] = [mark, m];
        i++;
        replaced = true;
        return mark;
      });
      if (!replaced) break;
    }
    const tokens = markedPath.match(/(?::[^\/]+)|(?:\/\*$)|./gs) || [];
    for (let i = groups.length - 1; i >= 0; i--) {
      const [mark] = groups[i];
      for (let j = tokens.length - 1; j >= 0; j--) if (tokens[j].indexOf(mark) !== -1) {
        tokens[j] = tokens[j].replace(mark, groups[i][1]);
        break;
      }
    }
    this.#root.insert(tokens, this.#index, paramAssoc, this.#context, keys);
    this.paths[path] = [
      this.#index++,
      paramAssoc,
      keys
    ];
  }
  buildRegExp() {
    let regexp = this.#root.buildRegExpStr();
    if (regexp === "") return [
      /^$/,
      [],
      []
    ];
    let captureIndex = 0;
    const indexReplacementMap = [];
    const paramReplacementMap = [];
    regexp = regexp.replace(/#(\d+)|@(\d+)|\.\*\$/g, (_, handlerIndex, paramIndex) => {
      if (handlerIndex !== void 0) {
        indexReplacementMap[++captureIndex] = Number(handlerIndex);
        return "$()";
      }
      if (paramIndex !== void 0) {
        paramReplacementMap[Number(paramIndex)] = ++captureIndex;
        return "";
      }
      return "";
    });
    return [
      new RegExp(`^${regexp}`),
      indexReplacementMap,
      paramReplacementMap
    ];
  }
};

// node_modules/hono/dist/router/reg-exp-router/router.js
function endsWithWildcard(keys) {
  const tail = keys[keys.length - 1];
  return tail === "[^]*" || tail === "(?:|/[^]*)";
}
function covers(wildcard, target) {
  const last = wildcard.length - 1;
  for (let i = 0; i < last; i++) if (wildcard[i] !== target[i]) return false;
  return wildcard[last] === "[^]*" || target.length === last || target[last] === "/";
}
var RegExpRouter = class {
  name = "RegExpRouter";
  #handlers;
  #tries;
  constructor() {
    this.#handlers = { ["ALL"]: [] };
    this.#tries = { ["ALL"]: new Trie() };
  }
  #insertPath(method, path) {
    try {
      this.#tries[method].insert(path, !/\*|\/:/.test(path));
    } catch (e) {
      throw e === PATH_ERROR ? new UnsupportedPathError(path) : e;
    }
  }
  add(method, path, handler) {
    const handlers = this.#handlers;
    if (!handlers) throw new Error(MESSAGE_MATCHER_IS_ALREADY_BUILT);
    const tries = this.#tries;
    if (!handlers[method]) {
      tries[method] = new Trie();
      handlers[method] = [...handlers["ALL"]];
      for (const p in tries["ALL"].paths) this.#insertPath(method, p);
    }
    if (path === "/*") path = "*";
    const methods = method === "ALL" ? Object.keys(handlers) : [method];
    const paths = checkOptionalParameter(path) || [path];
    for (const path2 of paths) for (const m of methods) {
      if (!tries[m].paths[path2]) this.#insertPath(m, path2);
      handlers[m].push([handler, path2]);
    }
  }
  match = match;
  buildAllMatchers() {
    const matchers = createNullObject();
    for (const method of Object.keys(this.#handlers)) matchers[method] = this.#buildMatcher(method);
    this.#handlers = this.#tries = void 0;
    return matchers;
  }
  #buildMatcher(method) {
    const handlers = this.#handlers[method];
    const trie = this.#tries[method];
    const staticMap = createNullObject();
    const handlerData = [];
    const [regexp, indexReplacementMap, paramReplacementMap] = trie.buildRegExp();
    const own = createNullObject();
    const entries = handlers.map(([h, p], i) => {
      (own[p] ??= []).push(i);
      return [h, trie.paths[p][1].reduceRight((map, [key, varIndex]) => {
        map[key] = paramReplacementMap[varIndex];
        return map;
      }, createNullObject())];
    });
    const wildcards = Object.keys(own).filter((p) => endsWithWildcard(trie.paths[p][2]));
    for (const path in trie.paths) {
      const [index, , keys] = trie.paths[path];
      const indexes = [...own[path]];
      for (const p of wildcards) if (p !== path && covers(trie.paths[p][2], keys)) indexes.push(...own[p]);
      const data = indexes.sort((a, b) => a - b).map((i) => entries[i]);
      if (index === -1) {
        const last = Math.max(-1, ...data.flatMap(([, map]) => Object.values(map)));
        staticMap[path] = [data, last === -1 ? emptyParam : path.match(regexp).slice(0, last + 1)];
      } else handlerData[index] = data;
    }
    return [
      regexp,
      indexReplacementMap.map((i) => handlerData[i]),
      staticMap
    ];
  }
};

// node_modules/hono/dist/router/smart-router/router.js
var SmartRouter = class {
  name = "SmartRouter";
  #routers = [];
  #routes = [];
  constructor(init) {
    this.#routers = init.routers;
  }
  add(method, path, handler) {
    if (!this.#routes) throw new Error(MESSAGE_MATCHER_IS_ALREADY_BUILT);
    this.#routes.push([
      method,
      path,
      handler
    ]);
  }
  match(method, path) {
    if (!this.#routes) throw new Error("Fatal error");
    const routers = this.#routers;
    const routes = this.#routes;
    const len = routers.length;
    let i = 0;
    let res;
    for (; i < len; i++) {
      const router = routers[i];
      try {
        for (let i2 = 0, len2 = routes.length; i2 < len2; i2++) router.add(...routes[i2]);
        res = router.match(method, path);
      } catch (e) {
        if (e instanceof UnsupportedPathError) continue;
        throw e;
      }
      this.match = router.match.bind(router);
      this.#routers = [router];
      this.#routes = void 0;
      break;
    }
    if (i === len) throw new Error("Fatal error");
    this.name = `SmartRouter + ${this.activeRouter.name}`;
    return res;
  }
  get activeRouter() {
    if (this.#routes || this.#routers.length !== 1) throw new Error("No active router has been determined yet.");
    return this.#routers[0];
  }
};

// node_modules/hono/dist/router/trie-router/node.js
var emptyParams = createNullObject();
var order = 0;
var Node3 = class Node4 {
  #methods = [];
  #children = createNullObject();
  #patterns = [];
  #pattern;
  #params = emptyParams;
  insert(method, path, handler) {
    let curNode = this;
    const parts = splitRoutingPath(path);
    const possibleKeys = /* @__PURE__ */ new Set();
    let i = 0;
    for (const p of parts) {
      const nextP = parts[++i];
      const pattern = getPattern(p, nextP) || (nextP === void 0 && p && p.indexOf("*") === p.length - 1 ? p : null);
      const isParam = Array.isArray(pattern);
      const key = isParam ? pattern[0] : pattern || p;
      const child = curNode.#children[key] ||= new Node4();
      if (pattern && !child.#pattern) {
        child.#pattern = pattern;
        curNode.#patterns.push(child);
      }
      curNode = child;
      if (isParam) possibleKeys.add(pattern[1]);
    }
    curNode.#methods.push({ [method]: {
      handler,
      possibleKeys: [...possibleKeys],
      score: ++order
    } });
  }
  #pushHandlerSets(handlerSets, node, method, nodeParams, params) {
    for (let i = 0, len = node.#methods.length; i < len; i++) {
      const m = node.#methods[i];
      const handlerSet = m[method] || m["ALL"];
      if (handlerSet) {
        handlerSet.params = createNullObject();
        handlerSets.push(handlerSet);
        for (let i2 = 0, len2 = handlerSet.possibleKeys.length; i2 < len2; i2++) {
          const key = handlerSet.possibleKeys[i2];
          handlerSet.params[key] = params?.[key] && !i2 ? params[key] : nodeParams[key] ?? params?.[key];
        }
      }
    }
  }
  search(method, path) {
    const handlerSets = [];
    this.#params = emptyParams;
    let curNodes = [this];
    const parts = splitPath(path);
    const curNodesQueue = [];
    const len = parts.length;
    let partOffsets = null;
    for (let i = 0; i < len; i++) {
      const part = parts[i];
      const isLast = i === len - 1;
      const tempNodes = [];
      for (let j = 0, len2 = curNodes.length; j < len2; j++) {
        const node = curNodes[j];
        const nextNode = node.#children[part];
        if (nextNode) {
          nextNode.#params = node.#params;
          if (isLast) {
            if (nextNode.#children["*"]) this.#pushHandlerSets(handlerSets, nextNode.#children["*"], method, node.#params);
            this.#pushHandlerSets(handlerSets, nextNode, method, node.#params);
          } else tempNodes.push(nextNode);
        }
        for (const child of node.#patterns) {
          const pattern = child.#pattern;
          const params = node.#params === emptyParams ? {} : { ...node.#params };
          if (typeof pattern === "string") {
            if (pattern === "*" || part.startsWith(pattern.slice(0, -1))) {
              this.#pushHandlerSets(handlerSets, child, method, node.#params);
              if (pattern === "*") {
                child.#params = params;
                tempNodes.push(child);
              }
            }
            continue;
          }
          const [, name, matcher] = pattern;
          if (!part && matcher === true) continue;
          if (matcher !== true) {
            if (!partOffsets) {
              partOffsets = [];
              let offset = path[0] === "/" ? 1 : 0;
              for (let p = 0; p < len; p++) {
                partOffsets[p] = offset;
                offset += parts[p].length + 1;
              }
            }
            const restPathString = path.slice(partOffsets[i]);
            const m = matcher.exec(restPathString);
            if (m) {
              if (!Object.hasOwn(params, name)) params[name] = m[0];
              this.#pushHandlerSets(handlerSets, child, method, node.#params, params);
              if (m[0].length === restPathString.length && child.#children["*"]) this.#pushHandlerSets(handlerSets, child.#children["*"], method, node.#params, params);
              for (const _ in child.#children) {
                child.#params = params;
                const componentCount = m[0].match(/\//g)?.length ?? 0;
                (curNodesQueue[componentCount] ||= []).push(child);
                break;
              }
              continue;
            }
          }
          if (matcher === true || matcher.test(part)) {
            if (!Object.hasOwn(params, name)) params[name] = part;
            if (isLast) {
              this.#pushHandlerSets(handlerSets, child, method, params, node.#params);
              if (child.#children["*"]) this.#pushHandlerSets(handlerSets, child.#children["*"], method, params, node.#params);
            } else {
              child.#params = params;
              tempNodes.push(child);
            }
          }
        }
      }
      const shifted = curNodesQueue.shift();
      curNodes = shifted ? tempNodes.concat(shifted) : tempNodes;
    }
    if (handlerSets[1]) handlerSets.sort((a, b) => {
      return a.score - b.score;
    });
    return [handlerSets.map(({ handler, params }) => [handler, params])];
  }
};

// node_modules/hono/dist/router/trie-router/router.js
var TrieRouter = class {
  name = "TrieRouter";
  #node = new Node3();
  add(method, path, handler) {
    for (const result of checkOptionalParameter(path) || [path]) this.#node.insert(method, result, handler);
  }
  match(method, path) {
    return this.#node.search(method, path);
  }
};

// node_modules/hono/dist/hono.js
var Hono3 = class extends Hono {
  /**
  * Creates an instance of the Hono class.
  *
  * @param options - Optional configuration options for the Hono instance.
  */
  constructor(options = {}) {
    super(options);
    this.router = options.router ?? new SmartRouter({ routers: [new RegExpRouter(), new TrieRouter()] });
  }
};

// node_modules/hono/dist/middleware/body-limit/index.js
var ERROR_MESSAGE = "Payload Too Large";
var bodyLimit = (options) => {
  const onError = options.onError || (() => {
    const res = new Response(ERROR_MESSAGE, { status: 413 });
    throw new HTTPException(413, { res });
  });
  const maxSize = options.maxSize;
  return async function bodyLimit2(c, next) {
    if (!c.req.raw.body) return next();
    const hasTransferEncoding = c.req.raw.headers.has("transfer-encoding");
    if (c.req.raw.headers.has("content-length") && !hasTransferEncoding) return parseInt(c.req.raw.headers.get("content-length") || "0", 10) > maxSize ? onError(c) : next();
    let size = 0;
    let buffer = /* @__PURE__ */ new Uint8Array(0);
    const rawReader = c.req.raw.body.getReader();
    for (; ; ) {
      const { done, value } = await rawReader.read();
      if (done) break;
      const offset = size;
      size += value.length;
      if (size > maxSize) return onError(c);
      if (size > buffer.length) {
        const grown = new Uint8Array(Math.min(maxSize, Math.max(size, buffer.length * 2)));
        grown.set(buffer.subarray(0, offset));
        buffer = grown;
      }
      buffer.set(value, offset);
    }
    c.req.raw = new Request(c.req.raw, { body: buffer.subarray(0, size) });
    return next();
  };
};

// src/web/file-routes.ts
import { Readable as Readable2 } from "node:stream";

// src/read/wait-schema.ts
var WaitReasonSchema = external_exports.enum(["thread-held", "thread-running", "thread-queued", "cancelled", "limit", "no-worker", "cap", "ready"]);
var WaitingItemSchema = external_exports.object({
  id: external_exports.string(),
  threadKey: external_exports.string().nullable(),
  /** The earlier item of its thread it waits behind (the first unfinished one), or null. */
  behindId: external_exports.string().nullable(),
  /** That item's state. */
  behindState: external_exports.enum(ITEM_STATES).nullable()
});
var WaitGroupSchema = external_exports.object({
  reason: WaitReasonSchema,
  count: external_exports.number().int(),
  /** They cannot start until a person acts (answers a held item, resumes, retries): the ETA leaves them out. */
  forPerson: external_exports.boolean(),
  /** The first few in file order. */
  first: external_exports.array(WaitingItemSchema),
  /** The words every window shows: `2 queued behind held items of their thread: q302, q303 wait for q301 (held) in thread T`. */
  text: external_exports.string()
});
var ItemWaitSchema = WaitingItemSchema.extend({
  reason: WaitReasonSchema,
  forPerson: external_exports.boolean(),
  /** In words, with the command that shows the item it waits behind when there is one. */
  text: external_exports.string()
});

// src/read/status-schema.ts
var ItemStateSchema = external_exports.enum(ITEM_STATES);
var StateCountsSchema = external_exports.record(ItemStateSchema, external_exports.number().int());
var FileCountsSchema = external_exports.object({ pending: external_exports.number(), downloaded: external_exports.number(), failed: external_exports.number(), expired: external_exports.number(), missing: external_exports.number() });
var DeciderSchema = external_exports.object({
  tool: external_exports.string(),
  by: external_exports.enum(["policy", "person"]),
  /** The person's name as they gave it (null for the policy, or a person who gave none). */
  person: external_exports.string().nullable(),
  /** The policy's rule that decided (null for a person). */
  reason: external_exports.string().nullable(),
  /** The person's note (null for the policy, or none given). */
  note: external_exports.string().nullable(),
  decidedAt: external_exports.string(),
  answer: external_exports.record(external_exports.string(), external_exports.unknown()),
  /** The decision in words: "approved", "declined", "chose a, b". */
  words: external_exports.string(),
  cost: external_exports.number(),
  /** A person's approval that took the batch past its budget, as they confirmed. */
  overBudget: external_exports.boolean()
});
var WorkerStatusSchema = external_exports.object({
  id: external_exports.string(),
  host: external_exports.string(),
  pid: external_exports.number(),
  gone: external_exports.boolean(),
  startedAt: external_exports.string(),
  heartbeatAt: external_exports.number(),
  heartbeatAgeMs: external_exports.number(),
  items: external_exports.number()
});
var HeldStatusSchema = external_exports.object({
  id: external_exports.string(),
  /** The pause it waits on (its run): what an answer names (`resq answer --run`). */
  runId: external_exports.string().nullable(),
  question: external_exports.string(),
  tool: external_exports.string().nullable(),
  input: external_exports.record(external_exports.string(), external_exports.unknown()).nullable(),
  /** The plan's cost as the service sent it, marked, when resq does not trust it; else null. */
  untrustedCost: external_exports.string().nullable(),
  holdReason: external_exports.string().nullable(),
  updatedAt: external_exports.string(),
  decisions: external_exports.array(DeciderSchema)
});
var FailedStatusSchema = external_exports.object({
  id: external_exports.string(),
  question: external_exports.string(),
  status: external_exports.enum(["failed", "error"]),
  /** The service's error code (`agent_error`, …), or null when it gave none. */
  errorCode: external_exports.string().nullable(),
  /** The service's message verbatim (untrusted text), or resq's for a refused request. */
  error: external_exports.string().nullable()
});
var NotifyStatusSchema = external_exports.object({
  /** The receivers in words (hosts, never a URL's path; a live worker's own notify command by its pid and host). */
  receivers: external_exports.string(),
  /** The live senders running a notify command of their own (given on their command line; the command is never stored). */
  commands: external_exports.array(external_exports.object({ host: external_exports.string(), pid: external_exports.number() })),
  undelivered: external_exports.number(),
  /** The latest error of an event not delivered yet (names the receiver by host), or null. */
  lastError: external_exports.string().nullable()
});
var BatchCardSchema = external_exports.object({
  id: external_exports.string(),
  name: external_exports.string(),
  kind: external_exports.enum(["runs", "models"]),
  createdAt: external_exports.string(),
  cancelledAt: external_exports.string().nullable(),
  total: external_exports.number(),
  counts: StateCountsSchema,
  /** Items held for a person (`counts.held`, said apart). */
  held: external_exports.number(),
  approvedCost: external_exports.number(),
  files: FileCountsSchema,
  /** Workers with a fresh heartbeat whose process is not known to have ended. */
  liveWorkers: external_exports.number()
});
var NextStepSchema = external_exports.object({
  /** `no-worker`: items are left (or answers wait to be sent) and no live worker carries the batch. */
  why: external_exports.literal("no-worker"),
  /** The words every window shows: `no worker running: resq resume NAME`. */
  text: external_exports.string(),
  /** The command that goes on, pasteable: quoted, with the `--db` and `--sim` it needs (src/text/command-hint.ts). */
  command: external_exports.string()
});
var ScoreRateSchema = external_exports.object({
  /** The scorer's name (its file's). */
  name: external_exports.string(),
  /** Its version: a hash of its settings. */
  version: external_exports.string(),
  passed: external_exports.number().int(),
  failed: external_exports.number().int(),
  unscored: external_exports.number().int(),
  /** passed / (passed + failed); null when nothing was judged. */
  passRate: external_exports.number().nullable(),
  low: external_exports.number().nullable(),
  high: external_exports.number().nullable()
});
var BatchStatusSchema = BatchCardSchema.extend({
  /** The batch's concurrency: most runs in flight. */
  concurrency: external_exports.number(),
  /** Runs in flight at the service over every worker. */
  inFlight: external_exports.number(),
  /** The adaptive cap when lowered after HTTP 429, else null. */
  capLimit: external_exports.number().nullable(),
  workers: external_exports.array(WorkerStatusSchema),
  /** The first held items in file order (`held` counts them all). */
  heldItems: external_exports.array(HeldStatusSchema),
  /** Items not finished and not held: queued, or at the service. */
  unfinished: external_exports.number(),
  /**
   * Items ended per second over the time runs were running, in a recent window of ended items
   * (time with nothing running, a batch stopped and resumed, is not counted); null before two ended.
   */
  ratePerS: external_exports.number().nullable(),
  /**
   * Seconds until the unfinished items are done at that rate, leaving out `etaLeavesOut`; 0 when
   * none is left; null without a rate or without a live worker.
   */
  etaS: external_exports.number().nullable(),
  /** Queued items the ETA leaves out: they cannot start until a person acts (answers the held item of their thread, resumes, retries). */
  etaLeavesOut: external_exports.number().int(),
  /** The queued items by why they wait (a count per reason, the first few named); empty when none is queued. */
  waiting: external_exports.array(WaitGroupSchema),
  next: NextStepSchema.nullable(),
  /** The batch's notifications: who it tells, events not delivered yet, the last delivery error; null when it tells nobody. */
  notify: NotifyStatusSchema.nullable(),
  /** Items whose create request may or may not have reached the service; resume re-sends them with the same key. */
  unknownSubmission: external_exports.array(external_exports.string()),
  invalidRows: external_exports.number(),
  /** The rows `--skip-invalid` left out, as `file:line: field: reason` (the first 100). */
  skipped: external_exports.array(external_exports.string()),
  /** The first failed and errored items in file order. */
  failed: external_exports.array(FailedStatusSchema),
  /** Failed and errored items in all. */
  failedTotal: external_exports.number(),
  /** The batch budget its policy sets (confirm_scope.batch_budget), against which `budgetSpent` runs; null: none. */
  budget: external_exports.number().nullable(),
  /**
   * What the budget has spent: `approvedCost` and what the batch's agent judge approved (its
   * `<name>.judge` spends from this budget); `approvedCost` alone for a batch without one.
   */
  budgetSpent: external_exports.number(),
  /** Each scorer's pass rate (the batch's scorers, or every scorer with verdicts); empty when none judges it. */
  scores: external_exports.array(ScoreRateSchema)
});

// src/read/item-schema.ts
var ChainRunSchema = external_exports.object({
  id: external_exports.string(),
  step: external_exports.number(),
  parentRunId: external_exports.string().nullable(),
  status: external_exports.string(),
  createdAt: external_exports.string(),
  finishedAt: external_exports.string().nullable(),
  /** Seconds it ran (the service's own times when it sent them), or null while it runs or when it ended unwatched without them. */
  seconds: external_exports.number().nullable(),
  /** It ended while no resq was watching, at or before `finishedAt`. */
  endedUnwatched: external_exports.boolean(),
  /** The tool the run paused on, if it paused. */
  pausedOn: external_exports.string().nullable(),
  /** The service's error code and message when the run failed, else null. */
  errorCode: external_exports.string().nullable(),
  error: external_exports.string().nullable()
});
var PauseSchema = external_exports.object({
  runId: external_exports.string(),
  tool: external_exports.string(),
  input: external_exports.record(external_exports.string(), external_exports.unknown()),
  /** The plan's cost as the service sent it, marked (`1e308 (untrusted: above 1e12)`), when resq does not trust it; else null. */
  untrustedCost: external_exports.string().nullable(),
  /** Who decided it, when, why, with what note; null while it waits for a person. */
  decision: DeciderSchema.nullable(),
  /**
   * `person`: held, waiting for an answer; `send`: answered, the answer not sent yet (a live
   * worker sends it at once, else the next `resq resume`); null: decided and sent, or past.
   */
  waiting: external_exports.enum(["person", "send"]).nullable()
});
var ItemFileSchema = external_exports.object({
  id: external_exports.string(),
  name: external_exports.string().nullable(),
  role: external_exports.string().nullable(),
  mediaType: external_exports.string().nullable(),
  status: external_exports.enum(["pending", "downloaded", "failed", "expired", "missing"]),
  /** The host whose disk holds `path`, or null. */
  host: external_exports.string().nullable(),
  path: external_exports.string().nullable(),
  bytes: external_exports.number().nullable(),
  sha256: external_exports.string().nullable(),
  /** Why it is not downloaded, or null. */
  error: external_exports.string().nullable(),
  expiresAt: external_exports.string()
});
var ItemViewSchema = external_exports.object({
  batch: external_exports.object({ id: external_exports.string(), name: external_exports.string() }),
  item: external_exports.object({
    id: external_exports.string(),
    seq: external_exports.number(),
    line: external_exports.number(),
    state: ItemStateSchema,
    question: external_exports.string(),
    meta: external_exports.record(external_exports.string(), external_exports.unknown()),
    /** The question set's expected answer (a string, a number or an object), or null. */
    expected: external_exports.unknown(),
    threadKey: external_exports.string().nullable(),
    threadId: external_exports.string().nullable(),
    runStatus: external_exports.string().nullable(),
    /** The answer (Markdown), or the text so far. */
    text: external_exports.string().nullable(),
    error: external_exports.string().nullable(),
    errorCode: external_exports.string().nullable(),
    holdReason: external_exports.string().nullable(),
    startedAt: external_exports.string().nullable(),
    finishedAt: external_exports.string().nullable(),
    attempt: external_exports.number()
  }),
  runs: external_exports.array(ChainRunSchema),
  pauses: external_exports.array(PauseSchema),
  /** What sends the item on when no live worker carries its batch (e.g. an answer recorded, not sent); null otherwise. */
  next: NextStepSchema.nullable(),
  /** Why a queued item does not start yet (src/read/waits.ts); null for an item not queued. */
  wait: ItemWaitSchema.nullable(),
  files: external_exports.array(ItemFileSchema),
  /** Each scorer's verdict of the item (every version kept), by scorer. */
  verdicts: external_exports.array(
    external_exports.object({ scorer: external_exports.string(), version: external_exports.string(), pass: external_exports.boolean().nullable(), score: external_exports.number().nullable(), reason: external_exports.string(), scoredAt: external_exports.string(), by: external_exports.string() })
  )
});

// src/web/api-schemas.ts
var STATES = ITEM_STATES;
var BatchListSchema = external_exports.object({ batches: external_exports.array(BatchCardSchema) });
var OverviewSchema = BatchStatusSchema;
var ItemSummarySchema = external_exports.object({
  id: external_exports.string(),
  seq: external_exports.number(),
  state: ItemStateSchema,
  question: external_exports.string(),
  answer: external_exports.string().nullable(),
  runStatus: external_exports.string().nullable(),
  error: external_exports.string().nullable(),
  holdReason: external_exports.string().nullable(),
  meta: external_exports.record(external_exports.string(), external_exports.unknown()),
  step: external_exports.number(),
  updatedAt: external_exports.string(),
  finishedAt: external_exports.string().nullable()
});
var ItemPageSchema = external_exports.object({ items: external_exports.array(ItemSummarySchema), next: external_exports.string().nullable(), prev: external_exports.string().nullable() });
var cursorParam = (name, from) => external_exports.string().max(2e3).refine((s) => decodeCursor(s) !== null, `${name}: not a cursor this server gave (a page's \`${from}\`)`).optional();
var ItemsQuerySchema = external_exports.object({
  state: external_exports.string().optional().transform((s, ctx) => {
    if (!s) return void 0;
    const list = s.split(",").map((x) => x.trim()).filter(Boolean);
    for (const x of list) if (!STATES.includes(x)) ctx.addIssue({ code: "custom", message: `state: "${x}" is not one of ${STATES.join(", ")}` });
    return list;
  }),
  meta: external_exports.string().max(500).optional(),
  value: external_exports.string().max(2e3).optional(),
  q: external_exports.string().max(500).optional(),
  /** With `verdict`: the items this scorer (by name) passed, failed or left unscored. */
  scorer: external_exports.string().max(200).optional(),
  verdict: external_exports.enum(["passed", "failed", "unscored"]).optional(),
  sort: external_exports.enum(["seq", "id", "updated"]).optional(),
  desc: external_exports.enum(["0", "1"]).optional(),
  after: cursorParam("after", "next"),
  before: cursorParam("before", "prev"),
  limit: external_exports.coerce.number().int().min(1).max(500).optional()
});
var FileViewSchema = external_exports.enum(["image", "svg", "markdown", "csv", "text", "download"]);
var ItemViewSchema2 = ItemViewSchema.extend({
  /** Each scorer's verdict on the item, by scorer then version (the reason is untrusted text: a command scorer's or the service's). */
  verdicts: external_exports.array(
    external_exports.object({ scorer: external_exports.string(), version: external_exports.string(), pass: external_exports.boolean().nullable(), score: external_exports.number().nullable(), reason: external_exports.string(), scoredAt: external_exports.string(), by: external_exports.string() })
  ),
  /** The answer rendered from Markdown (raw HTML escaped, http(s)/mailto links only), or null. */
  answerHtml: external_exports.string().nullable(),
  files: external_exports.array(
    ItemFileSchema.extend({
      /** On this server's disk: it can be shown or downloaded here. */
      here: external_exports.boolean(),
      view: FileViewSchema
    })
  )
});
var FilePreviewSchema = external_exports.object({
  kind: external_exports.enum(["markdown", "csv", "text"]),
  html: external_exports.string().optional(),
  rows: external_exports.array(external_exports.array(external_exports.string())).optional(),
  text: external_exports.string().optional(),
  truncated: external_exports.boolean()
});
var PauseSeenSchema = external_exports.object({ runId: external_exports.string(), tool: external_exports.string(), cost: external_exports.number().nullable() });
var RunIdSchema = external_exports.string().min(1, "runId: name the pause you answer (its run id, as the item view shows it)").max(200);
var AnswerBodySchema = external_exports.object({
  person: external_exports.string().trim().min(1, "person: give your name").max(100),
  runId: RunIdSchema,
  /** Approve even though it takes the batch past its budget (asked again by the page). */
  overBudget: external_exports.literal(true).optional(),
  reply: external_exports.discriminatedUnion("kind", [
    external_exports.object({ kind: external_exports.literal("approve"), note: external_exports.string().max(2e3).optional() }),
    external_exports.object({ kind: external_exports.literal("decline"), note: external_exports.string().max(2e3).optional() }),
    external_exports.object({ kind: external_exports.literal("choose"), ids: external_exports.array(external_exports.string().min(1)).min(1).max(100), note: external_exports.string().max(2e3).optional() })
  ])
});
var AnswerResultSchema = external_exports.object({
  item: external_exports.string(),
  runId: external_exports.string(),
  cost: external_exports.number(),
  overBudget: external_exports.boolean(),
  answer: external_exports.record(external_exports.string(), external_exports.unknown()),
  by: external_exports.literal("person"),
  person: external_exports.string(),
  next: NextStepSchema.nullable()
});
var HELD_LISTED = 500;
var costParam = (name) => external_exports.string().optional().transform((s, ctx) => {
  if (s === void 0 || s.trim() === "") return void 0;
  const n = Number(s);
  if (!Number.isFinite(n) || n < 0) ctx.addIssue({ code: "custom", message: `${name}: give a number of 0 or more` });
  return n;
});
var HeldQuerySchema = external_exports.object({
  tool: external_exports.string().max(200).optional(),
  minCost: costParam("minCost"),
  maxCost: costParam("maxCost"),
  meta: external_exports.string().max(500).optional(),
  value: external_exports.string().max(2e3).optional(),
  q: external_exports.string().max(500).optional()
});
var HeldSelectionSchema = external_exports.object({
  items: external_exports.array(
    external_exports.object({ id: external_exports.string(), runId: external_exports.string(), tool: external_exports.string(), cost: external_exports.number().nullable(), untrustedCost: external_exports.string().nullable(), holdReason: external_exports.string().nullable(), question: external_exports.string(), meta: external_exports.record(external_exports.string(), external_exports.unknown()) })
  ),
  count: external_exports.number(),
  totalCost: external_exports.number()
});
var BulkAnswerBodySchema = AnswerBodySchema.omit({ runId: true }).extend({
  items: external_exports.array(external_exports.object({ id: external_exports.string().min(1).max(1e3), runId: RunIdSchema })).min(1, "select at least one held item").max(HELD_LISTED)
});
var BulkAnswerResultSchema = external_exports.object({
  person: external_exports.string(),
  answered: external_exports.array(external_exports.object({ id: external_exports.string(), runId: external_exports.string(), tool: external_exports.string(), cost: external_exports.number().nullable(), overBudget: external_exports.boolean(), answer: external_exports.record(external_exports.string(), external_exports.unknown()) })),
  skipped: external_exports.array(external_exports.object({ id: external_exports.string(), reason: external_exports.string(), by: external_exports.string().nullable(), at: external_exports.string().nullable(), pause: PauseSeenSchema.optional() })),
  totalCost: external_exports.number(),
  /** The cost approved (0 for declines and choices). */
  spent: external_exports.number(),
  next: NextStepSchema.nullable()
});
var RetryBodySchema = external_exports.object({
  states: external_exports.array(external_exports.enum(["failed", "error", "cancelled"])).min(1).optional(),
  items: external_exports.array(external_exports.string()).max(1e4).optional()
});
var RetryResultSchema = external_exports.object({ requeued: external_exports.number(), next: NextStepSchema.nullable() });
var CancelBodySchema = external_exports.object({}).passthrough();
var CancelResultSchema = external_exports.object({ queued: external_exports.number(), cancelled: external_exports.number(), left: external_exports.number(), reason: external_exports.string().nullable() });
var ErrorSchema = external_exports.object({
  error: external_exports.string(),
  code: external_exports.string(),
  answeredBy: external_exports.string().optional(),
  answeredAt: external_exports.string().optional(),
  pause: PauseSeenSchema.optional(),
  seen: PauseSeenSchema.nullable().optional(),
  budget: external_exports.number().optional(),
  approvedCost: external_exports.number().optional(),
  cost: external_exports.number().optional(),
  newTotal: external_exports.number().optional()
});
var TurnSideSchema = external_exports.object({ pass: external_exports.boolean().nullable(), score: external_exports.number().nullable(), reason: external_exports.string(), version: external_exports.string() });
var VerdictTurnSchema = external_exports.object({ id: external_exports.string(), scorer: external_exports.string(), change: external_exports.enum(["regressed", "fixed"]), question: external_exports.string(), a: TurnSideSchema.nullable(), b: TurnSideSchema });
var CompareQuerySchema = external_exports.object({ a: external_exports.string().min(1), b: external_exports.string().min(1), limit: external_exports.coerce.number().int().min(1).max(5e3).optional() });
var CompareSideSchema = external_exports.object({ state: external_exports.string(), runStatus: external_exports.string().nullable(), question: external_exports.string(), text: external_exports.string().nullable(), decisions: external_exports.array(external_exports.string()), files: external_exports.array(external_exports.string()) });
var CompareResultSchema = external_exports.object({
  a: external_exports.string(),
  b: external_exports.string(),
  counts: external_exports.object({ both: external_exports.number(), onlyA: external_exports.number(), onlyB: external_exports.number(), same: external_exports.number(), stateChanged: external_exports.number(), questionChanged: external_exports.number(), answerChanged: external_exports.number(), decisionsDiffer: external_exports.number(), filesChanged: external_exports.number() }),
  changed: external_exports.array(
    external_exports.object({
      id: external_exports.string(),
      a: CompareSideSchema.nullable(),
      b: CompareSideSchema.nullable(),
      stateChanged: external_exports.boolean(),
      questionChanged: external_exports.boolean(),
      answerChanged: external_exports.boolean(),
      decisionsDiffer: external_exports.boolean(),
      filesAdded: external_exports.array(external_exports.string()),
      filesGone: external_exports.array(external_exports.string()),
      diff: external_exports.array(external_exports.object({ op: external_exports.enum([" ", "+", "-"]), text: external_exports.string() })).nullable()
    })
  ),
  more: external_exports.boolean(),
  /** The command that lists every difference, pasteable (`resq compare A B --json`, quoted, with `--db`). */
  listAll: external_exports.string(),
  /** Verdicts paired by item id and scorer name: counts per scorer, then the first regressed and fixed items. */
  verdicts: external_exports.object({
    paired: external_exports.number(),
    scorers: external_exports.array(
      external_exports.object({
        scorer: external_exports.string(),
        versionsA: external_exports.array(external_exports.string()),
        versionsB: external_exports.array(external_exports.string()),
        versionsDiffer: external_exports.boolean(),
        regressed: external_exports.number(),
        fixed: external_exports.number(),
        bothPass: external_exports.number(),
        bothFail: external_exports.number(),
        unscored: external_exports.number(),
        p: external_exports.number(),
        words: external_exports.string()
      })
    ),
    regressed: external_exports.array(VerdictTurnSchema),
    fixed: external_exports.array(VerdictTurnSchema),
    more: external_exports.boolean()
  })
});
var ExportQuerySchema = external_exports.object({ format: external_exports.enum(["jsonl", "csv"]).default("jsonl") });

// src/web/file-on-disk.ts
import { constants as constants2 } from "node:fs";
import { lstat, open, realpath } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
async function openRecordedFile(batch, f) {
  const out = batch.settings.download?.out ?? null;
  if (out === null || !isAbsolute(out)) return { ok: false, why: "no out folder is recorded for its batch" };
  if (f.path === null || !isAbsolute(f.path)) return { ok: false, why: "its recorded path is not an absolute path" };
  const root = resolve(out);
  const path = resolve(f.path);
  if (!isInside(root, path)) return { ok: false, why: "its recorded path is outside the batch's out folder" };
  try {
    let at = root;
    for (const part of relative(root, path).split(sep)) {
      at = join(at, part);
      if ((await lstat(at)).isSymbolicLink()) return { ok: false, why: "a part of its path is a symlink" };
    }
    const [realRoot, realPath] = await Promise.all([realpath(root), realpath(path)]);
    if (!isInside(realRoot, realPath)) return { ok: false, why: "its real path is outside the batch's out folder" };
  } catch (e) {
    return { ok: false, why: `it is not on disk (${e.code ?? "unreadable"})` };
  }
  let handle;
  try {
    handle = await open(path, constants2.O_RDONLY | constants2.O_NOFOLLOW | constants2.O_NONBLOCK);
  } catch (e) {
    return { ok: false, why: `it cannot be opened (${e.code ?? "unreadable"})` };
  }
  const st = await handle.stat({ bigint: true });
  const why = refusalOf(st, f);
  if (why !== null) {
    await handle.close();
    return { ok: false, why };
  }
  return { ok: true, handle, bytes: Number(st.size) };
}
function refusalOf(st, f) {
  if (!st.isFile()) return "it is not a regular file";
  if (st.nlink !== 1n) return `it has ${st.nlink} links (a hard link: the same file may have a name outside the out folder)`;
  if (f.dev !== null && f.ino !== null && (st.dev.toString() !== f.dev || st.ino.toString() !== f.ino))
    return "it is not the file resq wrote (its device and inode differ: replaced since)";
  if (f.bytes === null) return "resq recorded no size for it";
  if (st.size !== BigInt(f.bytes)) return `its size on disk (${st.size} bytes) is not the size resq recorded (${f.bytes})`;
  return null;
}

// src/web/respond.ts
function sendJson(c, schema, value, status = 200) {
  return c.json(schema.parse(value), status, { "Cache-Control": "no-store" });
}
function sendError(c, status, code, error, extra = {}) {
  return sendJson(c, ErrorSchema, { error, code, ...extra }, status);
}
function issueLine(where, e) {
  const first = e.issues[0];
  const path = first?.path.length ? `${first.path.join(".")}: ` : "";
  const msg = first?.message ?? "invalid";
  return `${where}: ${first?.code === "custom" ? msg : `${path}${msg}`}`;
}
function badRequest(c, where, e) {
  return sendError(c, 400, "RESQ_BAD_REQUEST", issueLine(where, e));
}
function queryOf(c) {
  return Object.fromEntries(new URL(c.req.url).searchParams);
}

// src/web/security.ts
import { timingSafeEqual } from "node:crypto";

// node_modules/@hono/node-server/dist/conninfo.mjs
var getConnInfo = (c) => {
  const bindings = c.env.server ? c.env.server : c.env;
  const address = bindings.incoming.socket.remoteAddress;
  const port = bindings.incoming.socket.remotePort;
  const family = bindings.incoming.socket.remoteFamily;
  return { remote: {
    address,
    port,
    addressType: family === "IPv4" ? "IPv4" : family === "IPv6" ? "IPv6" : void 0
  } };
};

// node_modules/hono/dist/utils/cookie.js
var algorithm = {
  name: "HMAC",
  hash: "SHA-256"
};
var getCryptoKey = async (secret) => {
  const secretBuf = typeof secret === "string" ? new TextEncoder().encode(secret) : secret;
  return await crypto.subtle.importKey("raw", secretBuf, algorithm, false, ["sign", "verify"]);
};
var makeSignature = async (value, secret) => {
  const key = await getCryptoKey(secret);
  const signature = await crypto.subtle.sign(algorithm.name, key, new TextEncoder().encode(value));
  return btoa(String.fromCharCode(...new Uint8Array(signature)));
};
var verifySignature = async (base64Signature, value, secret) => {
  try {
    const signatureBinStr = atob(base64Signature);
    const signature = new Uint8Array(signatureBinStr.length);
    for (let i = 0, len = signatureBinStr.length; i < len; i++) signature[i] = signatureBinStr.charCodeAt(i);
    return await crypto.subtle.verify(algorithm, secret, signature, new TextEncoder().encode(value));
  } catch {
    return false;
  }
};
var validCookieNameRegEx = /^[\w!#$%&'*.^`|~+-]+$/;
var relaxedCookieNameRegEx = /^[!#-:<>-[\]-~]+$/;
var validCookieValueRegEx = /^[ !#-:<-[\]-~]*$/;
var trimCookieWhitespace = (value) => {
  let start = 0;
  let end = value.length;
  while (start < end) {
    const charCode = value.charCodeAt(start);
    if (charCode !== 32 && charCode !== 9) break;
    start++;
  }
  while (end > start) {
    const charCode = value.charCodeAt(end - 1);
    if (charCode !== 32 && charCode !== 9) break;
    end--;
  }
  return start === 0 && end === value.length ? value : value.slice(start, end);
};
var parse = (cookie, name) => {
  if (name && cookie.indexOf(name) === -1) return {};
  const pairs = cookie.split(";");
  const parsedCookie = /* @__PURE__ */ Object.create(null);
  for (const pairStr of pairs) {
    const valueStartPos = pairStr.indexOf("=");
    if (valueStartPos === -1) continue;
    const cookieName = trimCookieWhitespace(pairStr.substring(0, valueStartPos));
    if (name && name !== cookieName || !relaxedCookieNameRegEx.test(cookieName) || cookieName in parsedCookie) continue;
    let cookieValue = trimCookieWhitespace(pairStr.substring(valueStartPos + 1));
    if (cookieValue.startsWith('"') && cookieValue.endsWith('"')) cookieValue = cookieValue.slice(1, -1);
    if (validCookieValueRegEx.test(cookieValue)) {
      parsedCookie[cookieName] = tryDecodeURIComponent(cookieValue);
      if (name) break;
    }
  }
  return parsedCookie;
};
var parseSigned = async (cookie, secret, name) => {
  const parsedCookie = /* @__PURE__ */ Object.create(null);
  const secretKey = await getCryptoKey(secret);
  for (const [key, value] of Object.entries(parse(cookie, name))) {
    const signatureStartPos = value.lastIndexOf(".");
    if (signatureStartPos < 0) continue;
    const signedValue = value.substring(0, signatureStartPos);
    const signature = value.substring(signatureStartPos + 1);
    if (signature.length !== 44 || !signature.endsWith("=")) continue;
    parsedCookie[key] = await verifySignature(signature, signedValue, secretKey) ? signedValue : false;
  }
  return parsedCookie;
};
var _serialize = (name, value, opt = {}) => {
  if (!validCookieNameRegEx.test(name)) throw new Error("Invalid cookie name");
  let cookie = `${name}=${value}`;
  if (/^__secure-/i.test(name) && !opt.secure) throw new Error("__Secure- Cookie must have Secure attributes");
  if (/^__host-/i.test(name)) {
    if (!opt.secure) throw new Error("__Host- Cookie must have Secure attributes");
    if (opt.path !== "/") throw new Error('__Host- Cookie must have Path attributes with "/"');
    if (opt.domain) throw new Error("__Host- Cookie must not have Domain attributes");
  }
  for (const key of [
    "domain",
    "path",
    "sameSite",
    "priority"
  ]) if (opt[key] && /[;\r\n]/.test(opt[key])) throw new Error(`${key} must not contain ";", "\\r", or "\\n"`);
  if (opt && typeof opt.maxAge === "number" && opt.maxAge >= 0) {
    if (opt.maxAge > 3456e4) throw new Error("Cookies Max-Age SHOULD NOT be greater than 400 days (34560000 seconds) in duration.");
    cookie += `; Max-Age=${opt.maxAge | 0}`;
  }
  if (opt.domain && opt.prefix !== "host") cookie += `; Domain=${opt.domain}`;
  if (opt.path) cookie += `; Path=${opt.path}`;
  if (opt.expires) {
    if (opt.expires.getTime() - Date.now() > 3456e7) throw new Error("Cookies Expires SHOULD NOT be greater than 400 days (34560000 seconds) in the future.");
    cookie += `; Expires=${opt.expires.toUTCString()}`;
  }
  if (opt.httpOnly) cookie += "; HttpOnly";
  if (opt.secure) cookie += "; Secure";
  if (opt.sameSite) cookie += `; SameSite=${opt.sameSite.charAt(0).toUpperCase() + opt.sameSite.slice(1)}`;
  if (opt.priority) cookie += `; Priority=${opt.priority.charAt(0).toUpperCase() + opt.priority.slice(1)}`;
  if (opt.partitioned) {
    if (!opt.secure) throw new Error("Partitioned Cookie must have Secure attributes");
    cookie += "; Partitioned";
  }
  return cookie;
};
var serialize = (name, value, opt) => {
  value = encodeURIComponent(value);
  return _serialize(name, value, opt);
};
var serializeSigned = async (name, value, secret, opt = {}) => {
  const signature = await makeSignature(value, secret);
  value = `${value}.${signature}`;
  value = encodeURIComponent(value);
  return _serialize(name, value, opt);
};

// node_modules/hono/dist/helper/cookie/index.js
var getSignedCookie = async (c, secret, key, prefix) => {
  const cookie = c.req.raw.headers.get("Cookie");
  if (typeof key === "string") {
    if (!cookie) return;
    let finalKey = key;
    if (prefix === "secure") finalKey = "__Secure-" + key;
    else if (prefix === "host") finalKey = "__Host-" + key;
    return (await parseSigned(cookie, secret, finalKey))[finalKey];
  }
  if (!cookie) return {};
  return await parseSigned(cookie, secret);
};
var generateCookie = (name, value, opt) => {
  let cookie;
  if (opt?.prefix === "secure") cookie = serialize("__Secure-" + name, value, {
    path: "/",
    ...opt,
    secure: true
  });
  else if (opt?.prefix === "host") cookie = serialize("__Host-" + name, value, {
    ...opt,
    path: "/",
    secure: true,
    domain: void 0
  });
  else cookie = serialize(name, value, {
    path: "/",
    ...opt
  });
  return cookie;
};
var generateSignedCookie = async (name, value, secret, opt) => {
  let cookie;
  if (opt?.prefix === "secure") cookie = await serializeSigned("__Secure-" + name, value, secret, {
    path: "/",
    ...opt,
    secure: true
  });
  else if (opt?.prefix === "host") cookie = await serializeSigned("__Host-" + name, value, secret, {
    ...opt,
    path: "/",
    secure: true,
    domain: void 0
  });
  else cookie = await serializeSigned(name, value, secret, {
    path: "/",
    ...opt
  });
  return cookie;
};

// src/web/session-cookie.ts
function flags(secure) {
  return { httpOnly: true, sameSite: "Strict", path: "/", ...secure ? { secure: true } : {} };
}
function serializeSessionCookie(name, id, key, secure) {
  return generateSignedCookie(name, id, key, flags(secure));
}
function clearedSessionCookie(name, secure) {
  return generateCookie(name, "", { ...flags(secure), maxAge: 0 });
}

// src/web/proxy.ts
function firstElement(value) {
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (ch === '"') quoted = !quoted;
    else if (ch === "," && !quoted) return value.slice(0, i);
  }
  return value;
}
function forwardedHeaderProto(value) {
  for (const pair of firstElement(value).split(";")) {
    const eq = pair.indexOf("=");
    if (eq < 0 || pair.slice(0, eq).trim().toLowerCase() !== "proto") continue;
    return pair.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1").toLowerCase();
  }
  return null;
}
function forwardedProto(header) {
  const forwarded = header("forwarded");
  const proto = forwarded === void 0 ? null : forwardedHeaderProto(forwarded);
  if (proto) return proto;
  const x = header("x-forwarded-proto");
  return x === void 0 ? null : firstElement(x).trim().toLowerCase() || null;
}
function viaHttps(behindProxy, header) {
  return behindProxy && forwardedProto(header) === "https";
}

// src/web/security.ts
var PAGE_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
var FILE_CSP = "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'none'";
function sameToken(given, token) {
  const a = Buffer.from(given, "utf8");
  const b = Buffer.from(token, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}
function plain(c, status, text, headers = {}) {
  return c.text(`${text}
`, status, { "Cache-Control": "no-store", ...headers });
}
function clientAddress(c) {
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}
function samePath(url) {
  url.searchParams.delete("token");
  url.searchParams.delete("code");
  return `/${url.pathname.replace(/^[/\\]+/, "")}${url.search}`;
}
function pageOrigin(c, host, behindProxy) {
  const scheme = viaHttps(behindProxy, (n) => c.req.header(n)) ? "https" : "http";
  try {
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return null;
  }
}
var LINK_SPENT = `this login link was used already or has expired: ask for a new one (the page's "Invite" button, resq serve --invite), or restart resq serve for a new link`;
function guard(o) {
  return async (c, next) => {
    const host = c.req.header("host");
    if (!o.hostAllowed(host)) return plain(c, 421, "this server does not answer for that Host (start resq serve with --allow-host NAME to add one)");
    const address = clientAddress(c);
    const wait = () => {
      const s = o.throttle.waitS(address);
      if (s === 0) return null;
      o.throttle.fail(address, false);
      return plain(c, 429, `too many wrong tokens or login codes from this address: wait ${s} s`, { "Retry-After": String(s) });
    };
    const wrong = (text) => {
      o.throttle.fail(address);
      return plain(c, 401, text);
    };
    let via = null;
    let session = null;
    let brought = null;
    const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "");
    if (bearer) {
      const refused = wait();
      if (refused) return refused;
      if (!sameToken(bearer[1], o.token)) return wrong("wrong token");
      via = "bearer";
    } else {
      const id = await getSignedCookie(c, o.sessionKey, o.cookieName);
      brought = typeof id === "string" ? id : null;
      if (brought !== null && await o.sessions.use(brought)) {
        via = "session";
        session = brought;
      }
    }
    const url = new URL(c.req.url);
    const code = url.searchParams.get("code");
    const token = url.searchParams.get("token");
    if ((code !== null || token !== null) && (c.req.method === "GET" || c.req.method === "HEAD")) {
      const headers = { Location: samePath(url), "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };
      const toPage = () => new Response(null, { status: 303, headers });
      const refused = wait();
      if (refused) return via === "session" ? toPage() : refused;
      const good = code !== null ? await o.sessions.spendCode(code) : sameToken(token, o.token);
      if (!good) {
        if (via === "session") return toPage();
        return wrong(code !== null ? LINK_SPENT : "wrong token");
      }
      if (brought !== null) await o.sessions.end(brought);
      const id = await o.sessions.open();
      headers["Set-Cookie"] = await serializeSessionCookie(o.cookieName, id, o.sessionKey, viaHttps(o.behindProxy, (n) => c.req.header(n)));
      return toPage();
    }
    if (via === null)
      return plain(c, 401, "token required: open a login link resq serve printed or an invitation (\u2026/?code=\u2026), or send Authorization: Bearer TOKEN");
    if (via === "session" && c.req.method !== "GET" && c.req.method !== "HEAD") {
      const origin = c.req.header("origin");
      const expected = pageOrigin(c, host, o.behindProxy);
      if (origin === void 0 || expected === null || origin.toLowerCase() !== expected.toLowerCase()) return plain(c, 403, originRefused(c, origin, o.behindProxy));
    }
    c.set("authVia", via);
    c.set("session", session);
    await next();
  };
}
function originRefused(c, origin, behindProxy) {
  const proxied = !behindProxy && forwardedProto((n) => c.req.header(n)) !== null && origin?.toLowerCase().startsWith("https:");
  return `a write must come from this page (Origin differs)${proxied ? ": behind an https proxy, start resq serve with --behind-proxy" : ""}`;
}
var securityHeaders = async (c, next) => {
  await next();
  const h = c.res.headers;
  if (!h.has("Content-Security-Policy")) h.set("Content-Security-Policy", PAGE_CSP);
  if (!h.has("Cache-Control")) h.set("Cache-Control", "no-store");
  h.set("X-Content-Type-Options", "nosniff");
  h.set("Referrer-Policy", "no-referrer");
  h.set("X-Frame-Options", "DENY");
  h.set("Cross-Origin-Opener-Policy", "same-origin");
  h.set("Cross-Origin-Resource-Policy", "same-origin");
};

// src/web/views.ts
import { hostname } from "node:os";
var IMAGE_TYPES = /* @__PURE__ */ new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
function fileType(f) {
  const declared = f.mediaType?.split(";")[0]?.trim().toLowerCase();
  if (declared && declared !== "application/octet-stream") return declared;
  const ext = /\.([a-z0-9]+)$/i.exec(f.name ?? f.path ?? "")?.[1]?.toLowerCase();
  const byExt = { png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp", svg: "image/svg+xml", md: "text/markdown", csv: "text/csv", txt: "text/plain", json: "application/json" };
  return ext && byExt[ext] || declared || "application/octet-stream";
}
function fileView(f) {
  const t = fileType(f);
  if (IMAGE_TYPES.has(t)) return "image";
  if (t === "image/svg+xml") return "svg";
  if (t === "text/markdown") return "markdown";
  if (t === "text/csv") return "csv";
  if (t === "text/plain" || t === "application/json" || t === "chemical/x-pdb") return "text";
  return "download";
}
function isHere(f) {
  return f.status === "downloaded" && f.path !== null && (f.host === null || f.host === hostname());
}
async function itemViewOf(store, batch, itemId, nowMs, db) {
  if (!await store.getItem(batch.id, itemId)) return null;
  const v = await readItemView(store, batch, itemId, { nowMs, hint: { db } });
  return {
    ...v,
    answerHtml: v.item.text === null ? null : renderMarkdown(v.item.text),
    files: v.files.map((f) => ({ ...f, here: isHere(f), view: fileView(f) }))
  };
}

// src/web/file-routes.ts
var PREVIEW_BYTES = 256 * 1024;
var PREVIEW_ROWS = 200;
function dispositionOf(kind, name, fallback) {
  const n = name ?? fallback;
  const ascii = n.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 100) || "file";
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(n)}`;
}
async function fileOr404(c, store, log) {
  const batch = await store.findBatch(c.req.param("batch") ?? "");
  if (!batch) return sendError(c, 404, "RESQ_NOT_FOUND", "no such batch");
  const f = await store.getFile(batch.id, c.req.param("file") ?? "");
  if (!f || f.itemId !== c.req.param("item")) return sendError(c, 404, "RESQ_NOT_FOUND", "no such file");
  if (!isHere(f)) return sendError(c, 404, "RESQ_NOT_HERE", f.status === "downloaded" ? `the file is on host "${f.host}", not this one` : `the file is ${f.status}, not on disk`);
  const opened = await openRecordedFile(batch, f);
  if (!opened.ok) {
    log(`file ${JSON.stringify(f.id)} of item ${JSON.stringify(f.itemId)} (batch ${JSON.stringify(batch.name)}) not served: ${opened.why}`);
    return sendError(c, 404, "RESQ_NOT_HERE", "the file is not where resq put it (the server logged why)");
  }
  return { f, handle: opened.handle };
}
function fileRoutes(app, store, log) {
  app.get("/api/batches/:batch/items/:item/files/:file", async (c) => {
    const found = await fileOr404(c, store, log);
    if (found instanceof Response) return found;
    const { f, handle } = found;
    const view = fileView(f);
    const inline = view === "image" || view === "svg";
    const type = inline ? fileType(f) : "application/octet-stream";
    const body = Readable2.toWeb(handle.createReadStream());
    return new Response(body, {
      headers: {
        "Content-Type": type,
        "Content-Disposition": dispositionOf(inline ? "inline" : "attachment", f.name, f.id),
        "Content-Security-Policy": FILE_CSP,
        "Cache-Control": "no-store"
      }
    });
  });
  app.get("/api/batches/:batch/items/:item/files/:file/preview", async (c) => {
    const found = await fileOr404(c, store, log);
    if (found instanceof Response) return found;
    const { f, handle: fh } = found;
    const view = fileView(f);
    if (view !== "markdown" && view !== "csv" && view !== "text") {
      await fh.close();
      return sendError(c, 400, "RESQ_BAD_REQUEST", "this file is not text: download it");
    }
    let text;
    let truncated;
    try {
      const buf = Buffer.alloc(PREVIEW_BYTES + 1);
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      truncated = bytesRead > PREVIEW_BYTES;
      text = buf.subarray(0, Math.min(bytesRead, PREVIEW_BYTES)).toString("utf8");
    } finally {
      await fh.close();
    }
    if (view === "markdown") return sendJson(c, FilePreviewSchema, { kind: "markdown", html: renderMarkdown(text), truncated });
    if (view === "csv") {
      const { parse: parse3 } = await import("./sync-WU6T6FRX.mjs");
      let rows;
      try {
        rows = parse3(text, { relax_column_count: true, relax_quotes: true, skip_empty_lines: true, to: PREVIEW_ROWS + 1 }).map((r) => r.map(String));
      } catch {
        return sendJson(c, FilePreviewSchema, { kind: "text", text, truncated });
      }
      return sendJson(c, FilePreviewSchema, { kind: "csv", rows: rows.slice(0, PREVIEW_ROWS), truncated: truncated || rows.length > PREVIEW_ROWS });
    }
    return sendJson(c, FilePreviewSchema, { kind: "text", text, truncated });
  });
}

// src/charts/svg-chart.ts
var PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];
var BAR_H = 18;
var GAP = 6;
var FONT = 'font-family="sans-serif" font-size="12"';
function niceStep(raw2) {
  if (!(raw2 > 0) || !Number.isFinite(raw2)) return 1;
  const p = 10 ** Math.floor(Math.log10(raw2));
  const f = raw2 / p;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}
function formatNumber(v) {
  if (Number.isInteger(v)) return String(v);
  const abs = Math.abs(v);
  return String(Number(v.toFixed(abs >= 100 ? 0 : abs >= 1 ? 2 : 3)));
}
function cut(s, n) {
  return s.length > n ? `${s.slice(0, n - 1)}\u2026` : s;
}
function svgBundle(svg, plain2) {
  return { "image/svg+xml": svg, "text/plain": plain2 };
}
function barChart(bars, o) {
  const width = o.width ?? 640;
  const unit = o.unit ? ` ${o.unit}` : "";
  const legendH = o.legend?.length ? 20 : 0;
  const top = 30 + legendH;
  const title = `<text x="8" y="20" font-family="sans-serif" font-size="14" font-weight="bold">${escapeHtml(o.title)}</text>`;
  if (bars.length === 0) {
    const msg = o.empty ?? "no data";
    const svg2 = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="60" viewBox="0 0 ${width} 60">${title}<text x="8" y="46" ${FONT} fill="#666">${escapeHtml(msg)}</text></svg>`;
    return svgBundle(svg2, `${o.title}: ${msg}`);
  }
  const labelW = Math.min(220, 12 + 7 * Math.max(...bars.map((b) => cut(b.label, 30).length)));
  const texts = bars.map((b) => cut(b.text ?? `${formatNumber(b.value)}${unit}`, 60));
  const textW = Math.min(300, 12 + 6.6 * Math.max(...texts.map((t) => t.length)));
  const plotW = Math.max(300, width - labelW - textW - 8);
  const fullW = Math.ceil(labelW + plotW + textW + 8);
  const max = Math.max(0, ...bars.map((b) => b.value));
  const step = niceStep(max / 5);
  const axisMax = max > 0 ? Math.ceil(max / step) * step : 1;
  const x = (v) => labelW + Math.max(0, v) / axisMax * plotW;
  const plotH = bars.length * (BAR_H + GAP);
  const height = top + plotH + 28;
  const parts = [title];
  o.legend?.forEach((l, i) => {
    const lx = 8 + i * 130;
    parts.push(`<rect x="${lx}" y="${top - 26}" width="10" height="10" fill="${escapeHtml(l.color)}"/>`);
    parts.push(`<text x="${lx + 14}" y="${top - 17}" ${FONT}>${escapeHtml(cut(l.label, 16))}</text>`);
  });
  for (let t = 0; t <= axisMax + step / 2; t += step) {
    const tx = x(t).toFixed(1);
    parts.push(`<line x1="${tx}" y1="${top - 4}" x2="${tx}" y2="${top + plotH}" stroke="#ddd"/>`);
    parts.push(`<text x="${tx}" y="${top + plotH + 16}" ${FONT} text-anchor="middle" fill="#555">${escapeHtml(formatNumber(t))}</text>`);
  }
  bars.forEach((b, i) => {
    const y = top + i * (BAR_H + GAP);
    parts.push(`<text x="${labelW - 6}" y="${y + 13}" ${FONT} text-anchor="end">${escapeHtml(cut(b.label, 30))}</text>`);
    const segs = b.segments?.length ? b.segments : [{ value: b.value, color: b.color ?? PALETTE[0] }];
    let from = 0;
    segs.forEach((s, j) => {
      const x0 = x(from);
      const w = Math.max(0, x(from + s.value) - x0);
      const tip = s.label ?? `${b.label}: ${formatNumber(s.value)}${unit}`;
      parts.push(`<rect x="${x0.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${BAR_H}" fill="${escapeHtml(s.color ?? PALETTE[j % PALETTE.length] ?? "#888")}" stroke="#fff" stroke-width="0.5"><title>${escapeHtml(tip)}</title></rect>`);
      from += s.value;
    });
    parts.push(`<text x="${(x(b.value) + 4).toFixed(1)}" y="${y + 13}" ${FONT} fill="#333">${escapeHtml(texts[i] ?? "")}</text>`);
  });
  parts.push(`<line x1="${labelW}" y1="${top - 4}" x2="${labelW}" y2="${top + plotH}" stroke="#888"/>`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${fullW}" height="${height}" viewBox="0 0 ${fullW} ${height}">
${parts.join("\n")}
</svg>`;
  const plain2 = [o.title, ...bars.map((b) => `  ${b.label}: ${b.text ?? `${formatNumber(b.value)}${unit}`}`)].join("\n");
  return svgBundle(svg, plain2);
}

// src/notebook/charts.ts
var STATUS_COLORS = STATE_COLORS;

// src/web/charts.ts
function stateBarSvg(name, counts) {
  const order2 = ["completed", "running", "waiting", "held", "queued", "failed", "error", "cancelled"];
  const value = (s) => s === "running" ? counts.running + counts.submitting : counts[s];
  const segments = order2.filter((s) => value(s) > 0).map((s) => ({ value: value(s), color: STATUS_COLORS[s], label: `${s}: ${value(s)}` }));
  const total = segments.reduce((n, s) => n + s.value, 0);
  const bars = total ? [{ label: "items", value: total, segments, text: `${total}` }] : [];
  return barChart(bars, {
    title: `Items by state \u2014 ${name}`,
    empty: "no items",
    legend: order2.filter((s) => value(s) > 0).slice(0, 6).map((s) => ({ label: `${s} ${value(s)}`, color: STATUS_COLORS[s] })),
    width: 720
  })["image/svg+xml"];
}
function runsOverTimeSvg(minutes, maxBars = 30) {
  const per = Math.max(1, Math.ceil(minutes.length / maxBars));
  const bars = [];
  for (let i = 0; i < minutes.length; i += per) {
    const group = minutes.slice(i, i + per);
    const admitted = group.reduce((n, m) => n + m.admitted, 0);
    const finished = group.reduce((n, m) => n + m.finished, 0);
    const label = `${group[0].minute.slice(11)}${per > 1 ? `+${per}m` : ""}`;
    bars.push({
      label,
      value: admitted + finished,
      segments: [
        { value: admitted, color: PALETTE[0], label: `${label}: ${admitted} admitted` },
        { value: finished, color: PALETTE[2], label: `${label}: ${finished} finished` }
      ],
      text: `${admitted} in, ${finished} done`
    });
  }
  return barChart(bars, {
    title: "Runs admitted and finished per minute (UTC)",
    empty: "no runs yet",
    legend: [
      { label: "admitted", color: PALETTE[0] },
      { label: "finished", color: PALETTE[2] }
    ],
    width: 720
  })["image/svg+xml"];
}

// src/web/metrics.ts
function labelValue(v) {
  return v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}
async function metricsText(store, nowMs = systemClock.now()) {
  const fam = (name, type, help) => ({ name, type, help, samples: [] });
  const items = fam("resq_items", "gauge", "Items by batch and state.");
  const inFlight = fam("resq_runs_in_flight", "gauge", "Runs in flight at the service over every worker of the batch.");
  const cap = fam("resq_concurrency_cap", "gauge", "The batch concurrency: most runs in flight.");
  const adaptive = fam("resq_adaptive_cap", "gauge", "The lowered cap after HTTP 429 (equal to the cap when not lowered).");
  const workers = fam("resq_workers_live", "gauge", "Workers whose heartbeat is younger than 60 seconds, less those of this host whose process ended.");
  const held = fam("resq_items_held", "gauge", "Items waiting for a person to answer a pause.");
  const files = fam("resq_files", "gauge", "Files by batch and state.");
  const cost = fam("resq_approved_cost_credits_total", "counter", "Cost of the plans approved, in credits.");
  const rate = fam("resq_items_ended_per_second", "gauge", "Items ended per second over the time runs were running, in a recent window of ended items (absent before two ended).");
  const budget = fam("resq_budget_credits", "gauge", "The batch budget its policy sets (confirm_scope.batch_budget), in credits (absent without one).");
  const wait = fam("resq_held_wait_seconds", "histogram", "How long held items waited for a person: from the pause being recorded to the person's decision.");
  const pass = fam("resq_score_pass_ratio", "gauge", "Each scorer's pass rate over the judged completed items: passed / (passed + failed) (absent before one is judged).");
  const eta = fam("resq_eta_seconds", "gauge", "Seconds until the unfinished items are done at that rate (absent without a rate or without a live worker).");
  for (const b of await store.listBatches()) {
    const st = await readBatchStatus(store, b, { nowMs, heldLimit: 0 });
    const l = `batch="${labelValue(b.name)}"`;
    for (const [state, n] of Object.entries(st.counts)) items.samples.push(`resq_items{${l},state="${state}"} ${n}`);
    inFlight.samples.push(`resq_runs_in_flight{${l}} ${st.inFlight}`);
    cap.samples.push(`resq_concurrency_cap{${l}} ${st.concurrency}`);
    adaptive.samples.push(`resq_adaptive_cap{${l}} ${st.capLimit ?? st.concurrency}`);
    workers.samples.push(`resq_workers_live{${l}} ${st.liveWorkers}`);
    held.samples.push(`resq_items_held{${l}} ${st.held}`);
    for (const [state, n] of Object.entries(st.files)) files.samples.push(`resq_files{${l},state="${state}"} ${n}`);
    cost.samples.push(`resq_approved_cost_credits_total{${l}} ${st.approvedCost}`);
    if (st.ratePerS !== null) rate.samples.push(`resq_items_ended_per_second{${l}} ${st.ratePerS}`);
    if (st.etaS !== null) eta.samples.push(`resq_eta_seconds{${l}} ${st.etaS}`);
    const named = /* @__PURE__ */ new Set();
    for (const s of st.scores) {
      if (s.passRate === null || named.has(s.name)) continue;
      named.add(s.name);
      pass.samples.push(`resq_score_pass_ratio{${l},scorer="${labelValue(s.name)}"} ${s.passRate}`);
    }
    if (st.budget !== null) budget.samples.push(`resq_budget_credits{${l}} ${st.budget}`);
    const h = await readHeldWaits(store, b.id);
    for (const x of h.buckets) wait.samples.push(`resq_held_wait_seconds_bucket{${l},le="${x.le}"} ${x.count}`);
    wait.samples.push(`resq_held_wait_seconds_bucket{${l},le="+Inf"} ${h.count}`, `resq_held_wait_seconds_sum{${l}} ${h.sum}`, `resq_held_wait_seconds_count{${l}} ${h.count}`);
  }
  return [items, inFlight, cap, adaptive, workers, held, files, cost, budget, rate, eta, pass, wait].map((f) => [`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} ${f.type}`, ...f.samples].join("\n")).join("\n").concat("\n");
}

// src/web/verdict-filter.ts
var VERDICTS = ["passed", "failed", "unscored"];
async function verdictFilterOf(store, batch, v) {
  const refs = await scorersShown(store, batch);
  const scorers = [...new Set(refs.map((r) => r.name))];
  if (v.scorer === void 0 && v.verdict === void 0) return { ok: true, filter: void 0, scorers };
  if (v.scorer === void 0 || v.verdict === void 0) return { ok: false, error: "query: scorer and verdict go together (scorer=NAME&verdict=passed|failed|unscored)", scorers };
  const ref = refs.find((r) => r.name === v.scorer);
  if (!ref) return { ok: false, error: `query: scorer: no scorer "${v.scorer}" judges this batch (${scorers.length ? `scorers: ${scorers.join(", ")}` : "it has none"})`, scorers };
  return { ok: true, filter: { scorer: ref.name, version: ref.version, is: v.verdict }, scorers };
}

// src/web/items-section.ts
var PAGE_SIZE = 20;
var PAGE_SIZES = [10, 20, 50, 100, 200];
var SORTS = [
  ["seq", "file order"],
  ["id", "id"],
  ["updated", "latest change"]
];
function sitePath(...parts) {
  return `/${parts.map((p) => encodeURIComponent(p)).join("/")}`;
}
function pageParams(v, cursor = {}) {
  const u = new URLSearchParams();
  if (v.state?.length) u.set("state", v.state.join(","));
  if (v.meta) {
    u.set("meta", v.meta);
    u.set("value", v.value ?? "");
  }
  if (v.q) u.set("q", v.q);
  if (v.scorer) u.set("scorer", v.scorer);
  if (v.verdict) u.set("verdict", v.verdict);
  if (v.sort && v.sort !== "seq") u.set("sort", v.sort);
  if (v.desc === "1") u.set("desc", "1");
  if (v.limit !== void 0 && v.limit !== PAGE_SIZE) u.set("limit", String(v.limit));
  if (cursor.after) u.set("after", cursor.after);
  else if (cursor.before) u.set("before", cursor.before);
  return u;
}
function itemPageQuery(v, limit, verdict) {
  return {
    ...verdict ? { verdict } : {},
    limit: v.limit ?? limit,
    ...v.state ? { states: v.state } : {},
    ...v.meta !== void 0 && v.value !== void 0 ? { meta: { key: v.meta, value: v.value } } : {},
    ...v.q ? { text: v.q } : {},
    ...v.sort ? { sort: v.sort } : {},
    desc: v.desc === "1",
    after: v.after ?? null,
    before: v.before ?? null
  };
}
var pageHref = (name, v, cursor = {}) => {
  const q = pageParams(v, cursor).toString();
  return `${sitePath("b", name)}${q ? `?${q}` : ""}`;
};
function timeHtml(iso) {
  if (!iso) return "\u2014";
  const d = new Date(iso);
  const text = Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 19).replace("T", " ")} UTC`;
  return html`<time datetime="${iso}">${text}</time>`;
}
var metaText = (m) => Object.entries(m).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`).join(" ");
var cutCell = (cls, text) => html`<td class="${cls}" title="${text}">${text}</td>`;
function rowHtml(name, it) {
  const said = it.answer ?? it.error ?? it.holdReason ?? "";
  return html`<tr data-id="${it.id}"><td><a href="${sitePath("b", name, "i", it.id)}" title="${it.id}">${it.id}</a></td><td><span class="chip s-${it.state}">${it.state}</span></td>${cutCell("text", it.question)}${cutCell("text", said)}${cutCell("meta", metaText(it.meta))}<td>${timeHtml(it.updatedAt)}</td></tr>\n`;
}
function verdictSelectHtml(v, scorers) {
  if (scorers.length === 0) return "";
  const names = [.../* @__PURE__ */ new Set([...scorers, ...v.scorer ? [v.scorer] : []])];
  const scorer = names.map((s) => html`<option value="${s}"${v.scorer === s ? html` selected` : ""}>${s}</option>`);
  const said = VERDICTS.map((x) => html`<option value="${x}"${v.verdict === x ? html` selected` : ""}>${x}</option>`);
  return html`<label> Scorer <select name="scorer" id="verdict-scorer"><option value="">any</option>${scorer}</select></label>
<label> verdict <select name="verdict" id="verdict-is"><option value="">any</option>${said}</select></label>
`;
}
function filtersHtml(name, v, scorers) {
  const chosen = new Set(v.state ?? []);
  const states = ITEM_STATES.map((s) => html`<label><input type="checkbox" name="state" value="${s}"${chosen.has(s) ? html` checked` : ""}> ${s}</label> `);
  const sort = SORTS.map(([k, t]) => html`<option value="${k}"${(v.sort ?? "seq") === k ? html` selected` : ""}>${t}</option>`);
  const size = v.limit ?? PAGE_SIZE;
  const sizes = [.../* @__PURE__ */ new Set([...PAGE_SIZES, size])].sort((a, b) => a - b).map((n) => html`<option value="${n}"${n === size ? html` selected` : ""}>${n}</option>`);
  return html`<form id="filters" class="filters" method="get" action="${sitePath("b", name)}">
<fieldset class="states"><legend>State</legend>${states}</fieldset>
<label>Meta field <input name="meta" value="${v.meta ?? ""}" size="8"></label>
<label> = <input name="value" value="${v.meta ? v.value ?? "" : ""}" size="8"></label>
<label> Text <input name="q" type="search" value="${v.q ?? ""}" size="14" placeholder="in id, question, answer"></label>
${verdictSelectHtml(v, scorers)}<label> Sort <select name="sort">${sort}</select></label>
<label><input type="checkbox" name="desc" value="1"${v.desc === "1" ? html` checked` : ""}> descending</label>
<label> Per page <select name="limit" id="page-size">${sizes}</select></label>
 <button type="submit">Apply</button>
</form>`;
}
function pagerHtml(name, v, page) {
  const first = v.after || v.before ? html`<a id="first-page" class="button" href="${pageHref(name, v)}">First page</a> ` : null;
  const prev = page.prev ? html`<a id="prev-page" class="button" rel="prev" href="${pageHref(name, v, { before: page.prev })}">Previous page</a> ` : null;
  const next = page.next ? html`<a id="next-page" class="button" rel="next" href="${pageHref(name, v, { after: page.next })}">Next page</a>` : html`<span class="muted">Last page.</span>`;
  return html`<p class="pager">${first}${prev}${next} <span class="muted">${page.items.length} on this page.</span></p>`;
}
function itemsSectionHtml(name, v, result, scorers = []) {
  const head = html`<section id="items"><h2>Items</h2>\n${filtersHtml(name, v, scorers)}\n`;
  if ("error" in result) return html`${head}<p class="error" id="items-error">${result.error}</p><p><a href="${sitePath("b", name)}">First page</a></p></section>`;
  const { page } = result;
  const table2 = page.items.length === 0 ? html`<p class="muted" id="no-items">No item matches.</p>` : html`<table class="grid" id="items-table"><colgroup><col class="c-id"><col class="c-state"><col class="c-text"><col class="c-text"><col class="c-meta"><col class="c-when"></colgroup><thead><tr><th>Id</th><th>State</th><th>Question</th><th>Answer / error</th><th>Meta</th><th>Changed</th></tr></thead><tbody>\n${page.items.map((it) => rowHtml(name, it))}</tbody></table>`;
  return html`${head}${table2}\n${pagerHtml(name, v, page)}</section>`;
}

// src/web/read-routes.ts
var notFound = (c, name) => sendError(c, 404, "RESQ_NOT_FOUND", `no batch named "${name}"`);
function readRoutes(app, d) {
  app.get("/api/batches", async (c) => {
    const cards = [];
    for (const b of await d.store.listBatches()) cards.push(batchCard(await d.store.overview(b.id, d.now(), STALE_MS)));
    return sendJson(c, BatchListSchema, { batches: cards });
  });
  app.get("/api/batches/:batch", async (c) => {
    const batch = await d.store.findBatch(c.req.param("batch"));
    if (!batch) return notFound(c, c.req.param("batch"));
    return sendJson(c, OverviewSchema, await readBatchStatus(d.store, batch, { nowMs: d.now(), hint: { db: d.db } }));
  });
  app.get("/api/batches/:batch/items", async (c) => {
    const q = ItemsQuerySchema.safeParse(queryOf(c));
    if (!q.success) return badRequest(c, "query", q.error);
    const batch = await d.store.findBatch(c.req.param("batch"));
    if (!batch) return notFound(c, c.req.param("batch"));
    const v = q.data;
    if (v.meta === void 0 !== (v.value === void 0)) return sendError(c, 400, "RESQ_BAD_REQUEST", "query: meta and value go together (meta=FIELD&value=TEXT)");
    const verdict = await verdictFilterOf(d.store, batch, v);
    if (!verdict.ok) return sendError(c, 400, "RESQ_BAD_REQUEST", verdict.error);
    const page = await d.store.itemPage(batch.id, itemPageQuery(v, 50, verdict.filter));
    return sendJson(c, ItemPageSchema, page);
  });
  app.get("/api/batches/:batch/held", async (c) => {
    const q = HeldQuerySchema.safeParse(queryOf(c));
    if (!q.success) return badRequest(c, "query", q.error);
    const batch = await d.store.findBatch(c.req.param("batch"));
    if (!batch) return notFound(c, c.req.param("batch"));
    const v = q.data;
    if (Boolean(v.meta) !== (v.value !== void 0)) return sendError(c, 400, "RESQ_BAD_REQUEST", "query: meta and value go together (meta=FIELD&value=TEXT)");
    const { selectHeld: selectHeld2 } = await import("./held-selection-C23KPINQ.mjs");
    try {
      const sel = await selectHeld2(d.store, batch, {
        ...v.tool?.trim() ? { tool: v.tool.trim() } : {},
        ...v.minCost !== void 0 ? { minCost: v.minCost } : {},
        ...v.maxCost !== void 0 ? { maxCost: v.maxCost } : {},
        ...v.meta ? { where: [{ key: `meta.${v.meta}`, value: v.value ?? "" }] } : {},
        ...v.q?.trim() ? { text: v.q.trim() } : {}
      });
      const items = sel.items.slice(0, HELD_LISTED).map((it) => ({ id: it.id, runId: it.runId, tool: it.tool, cost: it.cost, untrustedCost: it.untrustedCost, holdReason: it.holdReason, question: cutText(it.question), meta: it.meta }));
      return sendJson(c, HeldSelectionSchema, { items, count: sel.items.length, totalCost: sel.totalCost });
    } catch (e) {
      if (e instanceof ResqError && e.code === "RESQ_INPUT") return sendError(c, 400, "RESQ_BAD_REQUEST", `query: ${e.message}`);
      throw e;
    }
  });
  app.get("/api/batches/:batch/items/:item", async (c) => {
    const batch = await d.store.findBatch(c.req.param("batch"));
    if (!batch) return notFound(c, c.req.param("batch"));
    const view = await itemViewOf(d.store, batch, c.req.param("item"), d.now(), d.db);
    if (!view) return sendError(c, 404, "RESQ_NOT_FOUND", `batch "${batch.name}" has no item "${c.req.param("item")}"`);
    return sendJson(c, ItemViewSchema2, view);
  });
  const svg = (body) => new Response(body, { headers: { "Content-Type": "image/svg+xml; charset=utf-8", "Cache-Control": "no-store" } });
  app.get("/api/batches/:batch/charts/states.svg", async (c) => {
    const batch = await d.store.findBatch(c.req.param("batch"));
    if (!batch) return notFound(c, c.req.param("batch"));
    return svg(stateBarSvg(batch.name, await d.store.itemCounts(batch.id)));
  });
  app.get("/api/batches/:batch/charts/runs.svg", async (c) => {
    const batch = await d.store.findBatch(c.req.param("batch"));
    if (!batch) return notFound(c, c.req.param("batch"));
    return svg(runsOverTimeSvg(await d.store.runMinutes(batch.id)));
  });
  app.get("/api/batches/:batch/events", async (c) => {
    const batch = await d.store.findBatch(c.req.param("batch"));
    if (!batch) return notFound(c, c.req.param("batch"));
    const keepAliveMs = d.keepAliveMs ?? 25e3;
    const enc = new TextEncoder();
    let sub = null;
    let timer = null;
    const end = () => {
      sub?.stop();
      if (timer) clearInterval(timer);
    };
    const frame = (json2) => enc.encode(`event: overview
data: ${json2}

`);
    const body = new ReadableStream(
      {
        start(ctl) {
          ctl.enqueue(enc.encode("retry: 3000\n\n"));
          sub = d.live.subscribe(batch, {
            ready: () => (ctl.desiredSize ?? 1) > 0,
            send: (json2) => {
              try {
                ctl.enqueue(frame(json2));
              } catch {
                end();
              }
            }
          });
          timer = setInterval(() => {
            try {
              if ((ctl.desiredSize ?? 1) > 0) ctl.enqueue(enc.encode(": keep-alive\n\n"));
            } catch {
            }
          }, keepAliveMs);
        },
        pull() {
          sub?.drain();
        },
        cancel: end
      },
      { highWaterMark: 2 }
    );
    c.req.raw.signal.addEventListener("abort", end);
    return new Response(body, { headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store", "X-Accel-Buffering": "no" } });
  });
  app.get("/api/compare", async (c) => {
    const q = CompareQuerySchema.safeParse(queryOf(c));
    if (!q.success) return badRequest(c, "query", q.error);
    const [a, b] = await Promise.all([d.store.findBatch(q.data.a), d.store.findBatch(q.data.b)]);
    if (!a) return notFound(c, q.data.a);
    if (!b) return notFound(c, q.data.b);
    const [{ compareSummary }, { regressionSummary }] = await Promise.all([import("./compare-2BYHGYQE.mjs"), import("./regressions-J2XO4NW3.mjs")]);
    const s = await compareSummary(d.store, a, b, q.data.limit ?? 500);
    const verdicts = await regressionSummary(d.store, a, b, q.data.limit ?? 500);
    return sendJson(c, CompareResultSchema, { a: a.name, b: b.name, ...s, verdicts, listAll: commandHint(["resq", "compare", a.name, b.name, "--json"], { db: d.db }) });
  });
  app.get("/metrics", async () => new Response(await metricsText(d.store, d.now()), { headers: { "Content-Type": "text/plain; version=0.0.4; charset=utf-8", "Cache-Control": "no-store" } }));
}

// src/web/rule-route.ts
var RuleQuerySchema = external_exports.object({
  items: external_exports.string().optional().transform((s) => s ? [...new Set(s.split(",").map((x) => x.trim()).filter(Boolean))] : null).refine((l) => l === null || l.length <= 1e3, { message: "items: at most 1000 ids" })
});
var RuleViewSchema = external_exports.object({
  policy: external_exports.record(external_exports.string(), external_exports.unknown()),
  yaml: external_exports.string(),
  notes: external_exports.array(external_exports.string()),
  from: external_exports.number().int(),
  skipped: external_exports.array(external_exports.string()),
  agrees: external_exports.number().int(),
  pauses: external_exports.number().int(),
  /** The command that tries a policy on the whole batch, pasteable (quoted, with `--db`). */
  check: external_exports.string()
});
function ruleRoutes(app, d) {
  app.get("/api/batches/:batch/rule", async (c) => {
    const q = RuleQuerySchema.safeParse(queryOf(c));
    if (!q.success) return badRequest(c, "query", q.error);
    const batch = await d.store.findBatch(c.req.param("batch"));
    if (!batch) return sendError(c, 404, "RESQ_NOT_FOUND", `no batch named "${c.req.param("batch")}"`);
    const check = commandHint(["resq", "policy", "check", "POLICY", "--batch", batch.name], { db: d.db });
    return sendJson(c, RuleViewSchema, { ...await readRuleView(d.store, batch, q.data.items), check });
  });
}

// src/web/write-routes.ts
import { Readable as Readable3 } from "node:stream";
var JSON_TYPE = /^application\/json\s*(;\s*charset\s*=\s*("utf-8"|utf-8)\s*)?$/i;
async function jsonBody(c) {
  if (!JSON_TYPE.test(c.req.header("content-type") ?? ""))
    return { ok: false, res: sendError(c, 415, "RESQ_BAD_REQUEST", "body: send JSON (Content-Type: application/json, charset utf-8 if any)") };
  try {
    return { ok: true, value: await c.req.json() };
  } catch {
    return { ok: false, res: sendError(c, 400, "RESQ_BAD_REQUEST", "body: not valid JSON") };
  }
}
function failure(c, e, batch, db) {
  if (e instanceof PauseMovedError)
    return sendError(c, 409, e.code, `${e.message}; ${commandHint(["resq", "show", batch.name, e.itemId], { db })}`, { pause: e.now, seen: e.seen });
  if (e instanceof OverBudgetError)
    return sendError(c, 409, e.code, `${e.message}: confirm to go over the budget`, { budget: e.budget, approvedCost: e.approved, cost: e.cost, newTotal: e.total });
  if (e instanceof AlreadyAnsweredError) {
    return sendError(c, 409, e.code, e.message, { answeredBy: deciderName(e), answeredAt: e.answeredAt });
  }
  if (e instanceof ItemNotHeldError) return sendError(c, 409, e.code, e.message);
  if (e instanceof ResqError) {
    if (e.code === "RESQ_INPUT" || e.code === "RESQ_CONFIG") return sendError(c, 400, e.code, e.message);
    return sendError(c, 502, e.code, e.message);
  }
  throw e;
}
function safeFileName(name) {
  return name.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 80) || "batch";
}
function writeRoutes(app, d) {
  const batchOf = async (c) => d.store.findBatch(c.req.param("batch") ?? "");
  const write = (path, schema, act) => {
    app.post(path, async (c) => {
      const body = await jsonBody(c);
      if (!body.ok) return body.res;
      const parsed = schema.safeParse(body.value);
      if (!parsed.success) return badRequest(c, "body", parsed.error);
      const batch = await batchOf(c);
      if (!batch) return sendError(c, 404, "RESQ_NOT_FOUND", `no batch named "${c.req.param("batch")}"`);
      try {
        return await act(c, batch, parsed.data);
      } catch (e) {
        return failure(c, e, batch, d.db);
      }
    });
  };
  write("/api/batches/:batch/items/:item/answer", AnswerBodySchema, async (c, batch, { person, runId, overBudget, reply }) => {
    const r = await d.actions.answer(batch, c.req.param("item") ?? "", { person, runId, overBudget: overBudget === true }, reply);
    const next = await readNextStep(d.store, batch, d.now(), { db: d.db });
    return sendJson(c, AnswerResultSchema, { item: r.item, runId: r.runId, cost: r.cost, overBudget: r.overBudget, answer: r.answer, by: "person", person, next });
  });
  write("/api/batches/:batch/held/answer", BulkAnswerBodySchema, async (c, batch, { person, overBudget, reply, items }) => {
    const r = await d.actions.answerMany(batch, items, { person, overBudget: overBudget === true }, reply);
    const next = r.answered.length > 0 ? await readNextStep(d.store, batch, d.now(), { db: d.db }) : null;
    return sendJson(c, BulkAnswerResultSchema, { person, answered: r.answered, skipped: r.skipped, totalCost: r.totalCost, spent: r.spent, next });
  });
  write("/api/batches/:batch/retry", RetryBodySchema, async (c, batch, body) => {
    const requeued = await d.actions.retry(batch, { ...body.states ? { states: body.states } : {}, ...body.items ? { items: body.items } : {} });
    const next = requeued > 0 ? await readNextStep(d.store, batch, d.now(), { db: d.db }) : null;
    return sendJson(c, RetryResultSchema, { requeued, next });
  });
  write("/api/batches/:batch/cancel", CancelBodySchema, async (c, batch) => sendJson(c, CancelResultSchema, await d.actions.cancel(batch)));
  app.get("/api/batches/:batch/export", async (c) => {
    const q = ExportQuerySchema.safeParse(queryOf(c));
    if (!q.success) return badRequest(c, "query", q.error);
    const batch = await batchOf(c);
    if (!batch) return sendError(c, 404, "RESQ_NOT_FOUND", `no batch named "${c.req.param("batch")}"`);
    const { exportLines } = await import("./export-AW6J3TO3.mjs");
    const csv = q.data.format === "csv";
    const lines = exportLines(d.store, batch, { format: q.data.format });
    const body = Readable3.toWeb(Readable3.from(lines));
    return new Response(body, {
      headers: {
        "Content-Type": csv ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
        "Content-Disposition": `attachment; filename="${safeFileName(batch.name)}.${csv ? "csv" : "jsonl"}"`,
        "Cache-Control": "no-store"
      }
    });
  });
}

// src/web/session-routes.ts
var InviteBodySchema = external_exports.object({ hours: external_exports.number().positive().max(INVITE_MAX_MS / 36e5).optional() });
var InviteSchema = external_exports.object({ link: external_exports.string(), expiresAt: external_exports.string() });
function sessionRoutes(app, o) {
  app.post("/api/session/end", async (c) => {
    const id = c.get("session");
    if (id) await o.sessions.end(id);
    const secure = viaHttps(o.behindProxy, (n) => c.req.header(n));
    return new Response(null, { status: 204, headers: { "Set-Cookie": clearedSessionCookie(o.cookieName, secure), "Cache-Control": "no-store", "Clear-Site-Data": '"cache"' } });
  });
  app.post("/api/invites", async (c) => {
    const body = await jsonBody(c);
    if (!body.ok) return body.res;
    const parsed = InviteBodySchema.safeParse(body.value);
    if (!parsed.success) return badRequest(c, "body", parsed.error);
    const { code, expiresAt } = await o.sessions.invite(parsed.data.hours === void 0 ? INVITE_MS : Math.round(parsed.data.hours * 36e5));
    const origin = pageOrigin(c, c.req.header("host"), o.behindProxy);
    return sendJson(c, InviteSchema, { link: `${origin}/?code=${code}`, expiresAt: expiresAt.toISOString() }, 201);
  });
}

// src/web/static-files.ts
import { readdirSync, readFileSync } from "node:fs";
import { extname, join as join2, relative as relative2, sep as sep2 } from "node:path";
import { fileURLToPath } from "node:url";
var TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png"
};
var STATIC_DIR = fileURLToPath(new URL("./static/", import.meta.url));
function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? walk(join2(dir, e.name)) : [join2(dir, e.name)]);
}
function loadStatic(dir = STATIC_DIR) {
  const out = /* @__PURE__ */ new Map();
  for (const file of walk(dir)) {
    const type = TYPES[extname(file)];
    if (!type) continue;
    out.set(`/static/${relative2(dir, file).split(sep2).join("/")}`, { type, body: readFileSync(file) });
  }
  out.set("/static/js/states.js", { type: "text/javascript; charset=utf-8", body: Buffer.from(statesModule()) });
  out.set("/static/states.css", { type: "text/css; charset=utf-8", body: Buffer.from(statesCss()) });
  return out;
}
function statesModule() {
  return `// Made by the server from the library's list of item states (src/store/item-states.ts).
export const ITEM_STATES = ${JSON.stringify(ITEM_STATES)};
export const STATE_COLORS = ${JSON.stringify(STATE_COLORS)};
`;
}
function statesCss() {
  return Object.entries(STATE_COLORS).map(([s, c]) => `.chip.s-${s} { border-color: ${c}; }`).join("\n") + "\n";
}
var PAGE_PATHS = ["/", "/b/*", "/compare"];
function staticRoutes(app, files = loadStatic()) {
  const index = files.get("/static/index.html");
  if (!index) throw new Error(`the page's files are missing from ${STATIC_DIR}`);
  for (const p of PAGE_PATHS) app.get(p, () => new Response(new Uint8Array(index.body), { headers: { "Content-Type": index.type, "Cache-Control": "no-store" } }));
  app.get("/favicon.ico", () => new Response(null, { status: 204 }));
  app.get("/static/*", (c) => {
    const f = files.get(new URL(c.req.url).pathname);
    if (!f) return c.text("not found\n", 404);
    return new Response(new Uint8Array(f.body), { headers: { "Content-Type": f.type, "Cache-Control": "no-cache" } });
  });
}

// src/web/batch-page.ts
var FIELDS = ["meta", "value", "q", "scorer", "verdict", "sort", "desc", "limit", "after", "before"];
function itemsQueryOf(url) {
  const sp = url.searchParams;
  const raw2 = {};
  const states = sp.getAll("state").flatMap((s) => s.split(",")).map((s) => s.trim()).filter(Boolean);
  if (states.length) raw2.state = states.join(",");
  for (const k of FIELDS) {
    const v = sp.get(k);
    if (v !== null && v.trim() !== "") raw2[k] = k === "value" ? v : v.trim();
  }
  if (raw2.meta) raw2.value = sp.get("value") ?? "";
  else delete raw2.value;
  const parsed = ItemsQuerySchema.safeParse(raw2);
  return parsed.success ? { ok: true, query: parsed.data } : { ok: false, error: issueLine("query", parsed.error) };
}
function pageDocument(index, title, main) {
  const at = index.indexOf('<main id="main">');
  const end = index.indexOf("</main>", at);
  if (at < 0 || end < 0) throw new Error('index.html has no <main id="main">\u2026</main>');
  const head = index.slice(0, at).replace("<title>resq</title>", () => html`<title>${title}</title>`.text);
  return `${head}<main id="main">
${main.text}
${index.slice(end)}`;
}
function batchPageRoute(app, d) {
  app.get("/b/:batch", async (c) => {
    const name = c.req.param("batch");
    const send = (status, main) => c.html(pageDocument(d.index, `resq \u2014 ${name}`, main), status, { "Cache-Control": "no-store" });
    const crumbs = html`<p class="crumbs"><a href="/">Batches</a> / ${name}</p>\n<h1>${name}</h1>\n`;
    const batch = await d.store.findBatch(name);
    if (!batch) return send(404, html`${crumbs}<p class="error" id="batch-missing">no batch named "${name}"</p>`);
    const noscript = html`<noscript><p class="warn">The live overview, the held queue and the actions need JavaScript; the items below page without it.</p></noscript>\n`;
    const url = new URL(c.req.url);
    const q = itemsQueryOf(url);
    if (!q.ok) return send(400, html`${crumbs}${noscript}${itemsSectionHtml(name, { state: void 0 }, { error: q.error })}`);
    const v = q.query;
    const plain2 = pageParams(v, { after: v.after ?? null, before: v.before ?? null });
    if (JSON.stringify([...plain2]) !== JSON.stringify([...url.searchParams])) return c.redirect(`${sitePath("b", name)}${plain2.size ? `?${plain2}` : ""}`, 303);
    const verdict = await verdictFilterOf(d.store, batch, v);
    if (!verdict.ok) return send(400, html`${crumbs}${noscript}${itemsSectionHtml(name, { state: void 0 }, { error: verdict.error }, verdict.scorers)}`);
    const page = await d.store.itemPage(batch.id, itemPageQuery(v, PAGE_SIZE, verdict.filter));
    return send(200, html`${crumbs}${noscript}${itemsSectionHtml(name, v, { page }, verdict.scorers)}`);
  });
}

// src/web/app.ts
var BODY_LIMIT = 64 * 1024;
function buildApp(d) {
  const app = new Hono3();
  app.use("*", securityHeaders);
  app.use("*", guard(d));
  app.use("*", bodyLimit({ maxSize: BODY_LIMIT, onError: (c) => sendError(c, 413, "RESQ_TOO_LARGE", `body: more than ${BODY_LIMIT / 1024} KiB`) }));
  sessionRoutes(app, { sessions: d.sessions, cookieName: d.cookieName, behindProxy: d.behindProxy });
  readRoutes(app, { store: d.store, live: d.live, now: d.now, db: d.db, ...d.keepAliveMs ? { keepAliveMs: d.keepAliveMs } : {} });
  ruleRoutes(app, { store: d.store, db: d.db });
  writeRoutes(app, { store: d.store, actions: d.actions, now: d.now, db: d.db });
  fileRoutes(app, d.store, d.log ?? (() => void 0));
  const files = loadStatic();
  batchPageRoute(app, { store: d.store, index: files.get("/static/index.html")?.body.toString("utf8") ?? "" });
  staticRoutes(app, files);
  app.notFound((c) => c.req.path.startsWith("/api/") ? sendError(c, 404, "RESQ_NOT_FOUND", `no route ${c.req.method} ${c.req.path}`) : c.text("not found\n", 404));
  app.onError((e, c) => {
    d.onError?.(e);
    return sendError(c, 500, "RESQ_INTERNAL", "internal error (the server logged it)");
  });
  return app;
}

// src/web/live.ts
var TICK_SHARE = 0.1;
var eager = (send) => ({ ready: () => true, send });
var LiveHub = class {
  #store;
  #tickMs;
  #db;
  #clock;
  #onError;
  #entries = /* @__PURE__ */ new Map();
  constructor(o) {
    this.#store = o.store;
    this.#tickMs = o.tickMs ?? 1e3;
    this.#db = o.db;
    this.#clock = o.clock ?? systemClock;
    this.#onError = o.onError;
  }
  /** Sends the reader every changed overview of the batch (the latest at once, if known) until the subscription stops. */
  subscribe(batch, to) {
    const sub = { reader: typeof to === "function" ? eager(to) : to, pending: null };
    let e = this.#entries.get(batch.id);
    if (!e) {
      const entry2 = { batch, subscribers: /* @__PURE__ */ new Set(), last: null, wake: new AbortController(), again: false, stopListening: null };
      this.#entries.set(batch.id, entry2);
      entry2.stopListening = this.#store.onAnswered?.(batch.id, () => this.#tickNow(entry2)) ?? null;
      void this.#poll(entry2);
      e = entry2;
    } else if (e.last !== null) this.#offer(sub, e.last);
    e.subscribers.add(sub);
    const entry = e;
    return {
      drain: () => {
        if (sub.pending !== null && sub.reader.ready()) {
          const json2 = sub.pending;
          sub.pending = null;
          sub.reader.send(json2);
        }
      },
      stop: () => {
        if (!entry.subscribers.delete(sub)) return;
        if (entry.subscribers.size === 0) this.#drop(entry);
      }
    };
  }
  /** Pages watching a batch now. */
  watchers(batchId) {
    return this.#entries.get(batchId)?.subscribers.size ?? 0;
  }
  /** Batches being polled now (one poller each, however many pages watch). */
  pollers() {
    return this.#entries.size;
  }
  /** The most overviews waiting for any one page of the batch (a slow reader's newest: 0 or 1). */
  backlog(batchId) {
    let most = 0;
    for (const s of this.#entries.get(batchId)?.subscribers ?? []) most = Math.max(most, s.pending === null ? 0 : 1);
    return most;
  }
  #offer(sub, json2) {
    if (sub.reader.ready()) {
      sub.pending = null;
      sub.reader.send(json2);
    } else sub.pending = json2;
  }
  #tickNow(e) {
    e.again = true;
    e.wake.abort();
  }
  #drop(e) {
    this.#entries.delete(e.batch.id);
    e.wake.abort();
    e.stopListening?.();
  }
  #watched(e) {
    return this.#entries.get(e.batch.id) === e;
  }
  /** The batch's one poller: a tick, then a wait of at least `tickMs` that an answer cuts short, until nobody watches. */
  async #poll(e) {
    while (this.#watched(e)) {
      e.again = false;
      const t0 = this.#clock.now();
      try {
        const json2 = JSON.stringify(OverviewSchema.parse(await readBatchStatus(this.#store, e.batch, { nowMs: this.#clock.now(), hint: { db: this.#db } })));
        if (json2 !== e.last && this.#watched(e)) {
          e.last = json2;
          for (const s of e.subscribers) this.#offer(s, json2);
        }
      } catch (err) {
        this.#onError?.(err);
      }
      if (!this.#watched(e) || e.again) continue;
      if (e.wake.signal.aborted) e.wake = new AbortController();
      await this.#clock.sleep(Math.max(this.#tickMs, (this.#clock.now() - t0) / TICK_SHARE), e.wake.signal);
    }
  }
  /** Stops every poller. */
  close() {
    for (const e of [...this.#entries.values()]) this.#drop(e);
  }
};

// src/web/throttle.ts
var FAILURES_PER_MINUTE = 5;
var MINUTE = 6e4;
var MAX_ADDRESSES = 1e4;
var Throttle = class {
  #now;
  #report;
  #failures = /* @__PURE__ */ new Map();
  #unreported = 0;
  #from = /* @__PURE__ */ new Set();
  #lastReport = -Infinity;
  constructor(o) {
    this.#now = o.now;
    this.#report = o.report;
  }
  /** Seconds `address` must wait before its next try, or 0 when it may try now. */
  waitS(address) {
    const recent = this.#recent(address);
    if (recent.length < FAILURES_PER_MINUTE) return 0;
    return Math.max(1, Math.ceil((recent[recent.length - FAILURES_PER_MINUTE] + MINUTE - this.#now()) / 1e3));
  }
  /** Counts a wrong token or code (or a try refused while waiting) from `address`. */
  fail(address, counted = true) {
    const now = this.#now();
    if (counted) {
      const recent = this.#recent(address);
      recent.push(now);
      this.#failures.delete(address);
      this.#failures.set(address, recent.slice(-FAILURES_PER_MINUTE));
      while (this.#failures.size > MAX_ADDRESSES) this.#failures.delete(this.#failures.keys().next().value);
    }
    this.#unreported++;
    if (this.#from.size < 5) this.#from.add(address);
    if (now - this.#lastReport >= MINUTE) {
      const n = this.#unreported;
      this.#report(`${n} wrong token${n === 1 ? "" : "s"} or login code${n === 1 ? "" : "s"} ${Number.isFinite(this.#lastReport) ? "since the last line " : ""}from ${[...this.#from].join(", ")} (after ${FAILURES_PER_MINUTE} a minute an address waits)`);
      this.#lastReport = now;
      this.#unreported = 0;
      this.#from.clear();
    }
  }
  #recent(address) {
    const now = this.#now();
    return (this.#failures.get(address) ?? []).filter((t) => now - t < MINUTE);
  }
};

// src/web/server.ts
function newToken() {
  return randomBytes(32).toString("base64url");
}
async function startWebServer(o) {
  const host = o.host ?? "127.0.0.1";
  const token = o.token ?? newToken();
  const clock = o.clock ?? systemClock;
  const now = () => clock.now();
  const live = new LiveHub({ store: o.store, clock, ...o.tickMs ? { tickMs: o.tickMs } : {}, ...o.onError ? { onError: o.onError } : {}, ...o.db ? { db: o.db } : {} });
  const key = sessionKey(token);
  const sessions = new SessionBook({ store: o.store, key, now, ...o.onError ? { onError: o.onError } : {} });
  const throttle = new Throttle({ now, report: (line) => o.log?.(line) });
  let app = null;
  const server = createAdaptorServer({ fetch: (req, env) => app.fetch(req, env), hostname: host });
  await new Promise((resolve2, reject) => {
    server.once("error", reject);
    server.listen(o.port ?? 8642, host, () => {
      server.off("error", reject);
      resolve2();
    });
  });
  server.on("error", (e) => {
    if (!isLocalErrno(e)) throw e;
  });
  const port = server.address().port;
  app = buildApp({
    store: o.store,
    token,
    sessionKey: key,
    cookieName: sessionCookieName(port),
    sessions,
    throttle,
    hostAllowed: allowedHosts(host, port, o.allowHosts ?? []),
    behindProxy: o.behindProxy ?? false,
    actions: o.actions ?? libraryActions(o.store),
    live,
    now,
    ...o.db ? { db: o.db } : {},
    ...o.onError ? { onError: o.onError } : {},
    ...o.log ? { log: o.log } : {}
  });
  const origin = `http://${urlHost(host)}:${port}`;
  const loginUrl = () => `${origin}/?code=${sessions.newCode()}`;
  const url = loginUrl();
  await sessions.written();
  return {
    url,
    loginUrl,
    invite: async (lifeMs) => {
      const { code, expiresAt } = await sessions.invite(lifeMs);
      return { link: `${origin}/?code=${code}`, expiresAt };
    },
    origin,
    host,
    port,
    token,
    hosts: ownHosts(host, port),
    network: !isLoopback(host),
    close: async () => {
      live.close();
      await new Promise((resolve2) => {
        server.close(() => resolve2());
        server.closeAllConnections?.();
      });
    }
  };
}
export {
  newToken,
  startWebServer
};
//# sourceMappingURL=server-2SGBGQYU.mjs.map
