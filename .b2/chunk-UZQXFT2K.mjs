import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  CsvError,
  is_object,
  transform
} from "./chunk-6ELOTNCY.mjs";
import {
  fileChunks
} from "./chunk-UPSBM6NF.mjs";
import {
  isRawNumber,
  parseJsonExactly
} from "./chunk-ADUNF5BB.mjs";
import {
  commandHint
} from "./chunk-BXVQVF7L.mjs";
import {
  shellQuote
} from "./chunk-KPNMTWYO.mjs";
import {
  escapeControls
} from "./chunk-E7YGSVGC.mjs";

// src/tables/id-index.ts
var IdIndex = class {
  #bytes = Buffer.allocUnsafe(64 * 1024);
  #used = 0;
  /** Per entry: start of its bytes (the next entry's start is its end), hash, first line. */
  #starts = new Int32Array(1025);
  #hashes = new Int32Array(1024);
  #lines = new Int32Array(1024);
  #count = 0;
  /** Slots hold entry index + 1; 0 is empty. Kept at most half full. */
  #table = new Int32Array(2048);
  /** Ids recorded so far. */
  get size() {
    return this.#count;
  }
  /**
   * Records `id` first seen on `line`, or, when it is already there, leaves the index as
   * it is and returns the line it was first seen on.
   */
  addOrFind(id, line) {
    const hash = hashOf(id);
    this.#reserve(id.length * 3);
    const start = this.#used;
    const end = start + this.#bytes.write(id, start, "utf8");
    const mask = this.#table.length - 1;
    let slot = hash & mask;
    for (; ; ) {
      const e = this.#table[slot];
      if (e === 0) break;
      const k2 = e - 1;
      if (this.#hashes[k2] === hash && this.#sameBytes(k2, start, end)) return this.#lines[k2];
      slot = slot + 1 & mask;
    }
    const k = this.#count;
    this.#growEntries(k + 1);
    this.#hashes[k] = hash;
    this.#lines[k] = line;
    this.#starts[k] = start;
    this.#starts[k + 1] = end;
    this.#table[slot] = k + 1;
    this.#count = k + 1;
    this.#used = end;
    if (this.#count * 2 > this.#table.length) this.#rehash();
    return void 0;
  }
  #sameBytes(k, start, end) {
    const s = this.#starts[k];
    const e = this.#starts[k + 1];
    return e - s === end - start && this.#bytes.compare(this.#bytes, start, end, s, e) === 0;
  }
  #reserve(extra) {
    if (this.#used + extra <= this.#bytes.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.#bytes.length * 2, this.#used + extra));
    this.#bytes.copy(next, 0, 0, this.#used);
    this.#bytes = next;
  }
  #growEntries(n) {
    if (n < this.#hashes.length) return;
    const size = this.#hashes.length * 2;
    const starts = new Int32Array(size + 1);
    starts.set(this.#starts);
    const hashes = new Int32Array(size);
    hashes.set(this.#hashes);
    const lines = new Int32Array(size);
    lines.set(this.#lines);
    this.#starts = starts;
    this.#hashes = hashes;
    this.#lines = lines;
  }
  #rehash() {
    const table = new Int32Array(this.#table.length * 2);
    const mask = table.length - 1;
    for (let k = 0; k < this.#count; k++) {
      let slot = this.#hashes[k] & mask;
      while (table[slot] !== 0) slot = slot + 1 & mask;
      table[slot] = k + 1;
    }
    this.#table = table;
  }
};
function hashOf(s) {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  h ^= h >>> 16;
  h = Math.imul(h, 2246822507);
  return h ^ h >>> 13;
}

// src/tables/row.ts
var RESERVED = /* @__PURE__ */ new Set(["question", "id", "thread", "expected"]);
function csvColumns(header) {
  const names = header.map((h) => h.trim());
  const seen = /* @__PURE__ */ new Map();
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    if (name === "") return `header: column ${i + 1} has no name`;
    const first = seen.get(name);
    if (first !== void 0) return `header: columns ${first + 1} and ${i + 1} are both named "${name}": rename one`;
    seen.set(name, i);
  }
  const renamed = [];
  const at = {};
  for (const reserved of RESERVED) {
    const exact = names.indexOf(reserved);
    if (exact !== -1) {
      at[reserved] = exact;
      continue;
    }
    const near = names.flatMap((n, i) => n.toLowerCase() === reserved ? [i] : []);
    if (near.length > 1) return `header: columns ${near.map((i) => `"${names[i]}"`).join(" and ")} could each be "${reserved}": rename all but one`;
    at[reserved] = near[0] ?? -1;
    if (near.length === 1) renamed.push(`"${names[near[0]]}" as "${reserved}"`);
  }
  const question = at["question"];
  if (question === -1) return `header: no "question" column; found ${foundColumns(names)}`;
  const taken = new Set(Object.values(at));
  return {
    count: names.length,
    question,
    id: at["id"],
    thread: at["thread"],
    expected: at["expected"],
    metaNames: names.filter((_, i) => !taken.has(i)),
    metaIndexes: names.flatMap((_, i) => taken.has(i) ? [] : [i]),
    renamed
  };
}
function foundColumns(names) {
  const shown = names.slice(0, 20).map((n) => JSON.stringify(n));
  return `${shown.join(", ")}${names.length > shown.length ? `, \u2026 ${names.length - shown.length} more` : ""}`;
}
function csvRecordToRow(file, columns, fields, line, ordinal) {
  const question = fields[columns.question];
  if (question.trim() === "") return bad(file, line, "question", "empty");
  const idCell = columns.id === -1 ? "" : fields[columns.id];
  const id = idCell.trim() === "" ? String(ordinal) : idCell;
  const threadCell = columns.thread === -1 ? "" : fields[columns.thread];
  const expectedCell = columns.expected === -1 ? "" : fields[columns.expected];
  const meta = {};
  const { metaNames, metaIndexes } = columns;
  for (let k = 0; k < metaNames.length; k++) setKey(meta, metaNames[k], fields[metaIndexes[k]]);
  return {
    ok: true,
    row: { id, line, question, thread: threadCell.trim() === "" ? null : threadCell, meta, ...expectedCell.trim() === "" ? {} : { expected: expectedCell } }
  };
}
function jsonToRow(file, value, line, ordinal, notify) {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return bad(file, line, void 0, `expected a JSON object, found ${describe(value)}`);
  }
  const record = value;
  const reserved = { question: record["question"], id: record["id"], thread: record["thread"], expected: record["expected"] };
  const meta = {};
  for (const name of Object.keys(record)) {
    if (RESERVED.has(name)) continue;
    const lower = name.toLowerCase();
    if (lower !== name && RESERVED.has(lower) && reserved[lower] === void 0 && !Object.hasOwn(record, lower)) {
      reserved[lower] = record[name];
      notify?.(`${file}: read key "${name}" as "${lower}"`);
      continue;
    }
    setKey(meta, name, record[name]);
  }
  const question = reserved["question"];
  if (question === void 0) return bad(file, line, "question", "missing");
  if (typeof question !== "string") {
    return bad(file, line, "question", `must be a string, found ${describe(question)}`);
  }
  if (question.trim() === "") return bad(file, line, "question", "empty");
  const id = key(reserved["id"], true);
  if (id !== null && typeof id === "object") return bad(file, line, "id", id.reason);
  const thread = key(reserved["thread"], false);
  if (thread !== null && typeof thread === "object") return bad(file, line, "thread", thread.reason);
  const expected = reserved["expected"] ?? null;
  if (!isExpected(expected)) return bad(file, line, "expected", `must be a string, a number or an object, found ${describe(expected)}`);
  return { ok: true, row: { id: id ?? String(ordinal), line, question, thread, meta, ...expected === null ? {} : { expected } } };
}
var questionSchema = {
  noun: "questions",
  csvHeader(file, names, line, notify) {
    const columns = csvColumns(names);
    if (typeof columns === "string") return [{ file, line, reason: columns }];
    if (columns.renamed.length > 0) notify?.(`${file}:${line}: header: read ${columns.renamed.join(", ")} (resq's column names are lower case)`);
    return (fields, at, ordinal) => csvRecordToRow(file, columns, fields, at, ordinal);
  },
  jsonRow: jsonToRow
};
var DuplicateIds = class {
  #index = new IdIndex();
  /** Records a valid row's id; returns the problem when an earlier row had it. */
  check(file, row) {
    const first = this.#index.addOrFind(row.id, row.line);
    return first === void 0 ? null : duplicateIdProblem(file, row.id, row.line, first);
  }
};
function duplicateIdProblem(file, id, line, firstLine2) {
  return { file, line, field: "id", reason: `duplicate "${escapeControls(id)}" (first on line ${firstLine2})` };
}
function key(value, idRules) {
  if (value === void 0 || value === null) return null;
  if (isRawNumber(value) && /^-?\d+$/.test(value.rawJSON)) return value.rawJSON;
  if (typeof value === "number" && Number.isInteger(value)) {
    if (!Number.isSafeInteger(value)) return { reason: "integer too large: write it as a string" };
    return String(value);
  }
  if (typeof value !== "string") {
    return { reason: `must be a string or an integer, found ${describe(value)}` };
  }
  if (value.trim() === "") return idRules ? { reason: "empty" } : null;
  return value;
}
function isExpected(value) {
  if (value === null || typeof value === "string" || isRawNumber(value)) return true;
  if (typeof value === "number") return Number.isFinite(value);
  return typeof value === "object" && !Array.isArray(value);
}
function setKey(target, name, value) {
  if (name === "__proto__") {
    Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[name] = value;
  }
}
function describe(value) {
  if (value === null) return "null";
  if (isRawNumber(value)) return "a number";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "number") return "a number";
  return `a ${typeof value}`;
}
function bad(file, line, field, reason) {
  return { ok: false, problem: field ? { file, line, field, reason } : { file, line, reason } };
}

// src/tables/format.ts
import { extname } from "node:path";

// src/tables/encoding.ts
function wideEncoding(head) {
  const [a, b, c, d] = head;
  if (a === 255 && b === 254 && c === 0 && d === 0) return "UTF-32LE";
  if (a === 0 && b === 0 && c === 254 && d === 255) return "UTF-32BE";
  if (a === 255 && b === 254) return "UTF-16LE";
  if (a === 254 && b === 255) return "UTF-16BE";
  if (head.length < 4 || a === void 0 || b === void 0 || c === void 0 || d === void 0) return null;
  if (a !== 0 && b === 0 && c === 0 && d === 0) return "UTF-32LE";
  if (a === 0 && b === 0 && c === 0 && d !== 0) return "UTF-32BE";
  if (a !== 0 && b === 0 && c !== 0 && d === 0) return "UTF-16LE";
  if (a === 0 && b !== 0 && c === 0 && d !== 0) return "UTF-16BE";
  return null;
}
function wideEncodingReason(encoding, file) {
  return `file is ${encoding.slice(0, 6)} encoded (${encoding}); resq reads UTF-8: convert it with ${convertCommand(encoding, file)}`;
}
function convertCommand(encoding, file) {
  return `${commandHint(["iconv", "-f", encoding, "-t", "UTF-8", file])} > ${shellQuote(file.replace(/(\.[^./]*)?$/, ".utf8$1"))}`;
}
var MAGIC = [
  [[127, 69, 76, 70], "an ELF executable"],
  [[137, 80, 78, 71, 13, 10, 26, 10], "a PNG image"],
  [[37, 80, 68, 70, 45], "a PDF document"],
  [[80, 75, 3, 4], "a ZIP archive (an Excel .xlsx workbook is one)"]
];
function notTextReason(head) {
  for (const [magic, what] of MAGIC) {
    if (head.length >= magic.length && magic.every((b, i) => head[i] === b)) {
      return `not a text file: it is ${what}; a question set is CSV or JSONL text`;
    }
  }
  return null;
}

// src/tables/format.ts
function formatFromName(path) {
  const ext = extname(path).toLowerCase();
  if (ext === ".csv") return "csv";
  if (ext === ".tsv") return "tsv";
  if (ext === ".jsonl" || ext === ".ndjson") return "jsonl";
  return null;
}
function sniffFormat(head, file = "FILE") {
  const wide = wideEncoding(head);
  if (wide) return { reason: wideEncodingReason(wide, file) };
  const binary = notTextReason(head);
  if (binary) return { reason: binary };
  let text = Buffer.from(head.buffer, head.byteOffset, head.length).toString("utf8");
  if (text.charCodeAt(0) === 65279) text = text.slice(1);
  const trimmed = text.trimStart();
  if (trimmed === "") return { reason: "file is empty" };
  if (trimmed.startsWith("{")) return { format: "jsonl" };
  if (trimmed.startsWith("[")) {
    return { reason: "looks like a JSON array: write one JSON object a line (JSONL)" };
  }
  const lines = trimmed.split(/\r\n|\n|\r/, 2);
  const firstLine2 = /^sep=.$/i.test(lines[0]) ? lines[1] ?? "" : lines[0];
  const names = firstLine2.split(/[,;\t]/).map((f) => f.trim().replace(/^"(.*)"$/, "$1"));
  if (names.some((n) => n.toLowerCase() === "question")) return { format: "csv" };
  return { reason: "cannot tell whether this is CSV or JSONL: name it .csv, .tsv, .jsonl or .ndjson" };
}

// src/tables/row-schema.ts
function problem(p) {
  return { ok: false, problem: escaped(p) };
}
function refused(r) {
  return r.more ? { ok: false, problem: escaped(r.problem), more: r.more.map(escaped) } : problem(r.problem);
}
function problemsOf(r) {
  if (r.ok) return [];
  return r.more ? [r.problem, ...r.more] : [r.problem];
}
function escaped(p) {
  const file = escapeControls(p.file);
  const reason = escapeControls(p.reason);
  const field = p.field === void 0 ? void 0 : escapeControls(p.field);
  if (file === p.file && reason === p.reason && field === p.field) return p;
  return field === void 0 ? { ...p, file, reason } : { ...p, file, field, reason };
}

// node_modules/csv-parse/lib/index.js
import { Transform } from "stream";
var Parser = class extends Transform {
  constructor(opts = {}) {
    super({ ...{ readableObjectMode: true }, ...opts, encoding: null });
    this.api = transform({
      on_skip: (err, chunk) => {
        this.emit("skip", err, chunk);
      },
      ...opts
    });
    this.state = this.api.state;
    this.options = this.api.options;
    this.info = this.api.info;
  }
  // Implementation of `Transform._transform`
  _transform(buf, _, callback) {
    if (this.state.stop === true) {
      return;
    }
    const err = this.api.parse(
      buf,
      false,
      (record) => {
        this.push(record);
      },
      () => {
        this.push(null);
        this.end();
        this.on("end", this.destroy);
      }
    );
    if (err !== void 0) {
      this.state.stop = true;
    }
    callback(err);
  }
  // Implementation of `Transform._flush`
  _flush(callback) {
    if (this.state.stop === true) {
      return;
    }
    const err = this.api.parse(
      void 0,
      true,
      (record) => {
        this.push(record);
      },
      () => {
        this.push(null);
        this.on("end", this.destroy);
      }
    );
    callback(err);
  }
};
var parse = function() {
  let data, options, callback;
  for (const i in arguments) {
    const argument = arguments[i];
    const type = typeof argument;
    if (data === void 0 && (typeof argument === "string" || Buffer.isBuffer(argument))) {
      data = argument;
    } else if (options === void 0 && is_object(argument)) {
      options = argument;
    } else if (callback === void 0 && type === "function") {
      callback = argument;
    } else {
      throw new CsvError(
        "CSV_INVALID_ARGUMENT",
        ["Invalid argument:", `got ${JSON.stringify(argument)} at index ${i}`],
        options || {}
      );
    }
  }
  const parser = new Parser(options);
  if (callback) {
    const records = options === void 0 || options.objname === void 0 ? [] : /* @__PURE__ */ Object.create(null);
    parser.on("readable", function() {
      let record;
      while ((record = this.read()) !== null) {
        if (options === void 0 || options.objname === void 0) {
          records.push(record);
        } else {
          Object.assign(records, {
            [record[0]]: record[1]
            // writable: true,
            // enumerable: true,
            // configurable: true
          });
        }
      }
    });
    parser.on("error", function(err) {
      callback(err, void 0, parser.api.__infoDataSet());
    });
    parser.on("end", function() {
      callback(void 0, records, parser.api.__infoDataSet());
    });
  }
  if (data !== void 0) {
    const writer = function() {
      parser.write(data);
      parser.end();
    };
    if (typeof setImmediate === "function") {
      setImmediate(writer);
    } else {
      setTimeout(writer, 0);
    }
  }
  return parser;
};

// src/tables/byte-check.ts
import { isUtf8 } from "node:buffer";
var INVALID_UTF8 = "invalid UTF-8 bytes (the file must be UTF-8 encoded)";
var NUL_BYTE = "contains a NUL byte (is this a binary file?)";
var ByteChecker = class {
  /** File offset of the next chunk's first byte. */
  #offset = 0;
  /** Start of a multi-byte sequence cut by the end of the previous chunk. */
  #carry = null;
  #carryOffset = 0;
  #faults = [];
  /** Whether a line end (LF or CR: old Mac files end lines with CR alone) was seen since the last fault: one fault a line is enough. */
  #lineFedSinceFault = true;
  /** Checks the next chunk of the file. */
  push(chunk) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    let start = 0;
    if (this.#carry !== null) {
      const carry = this.#carry;
      const need = sequenceLength(carry[0]) - carry.length;
      const joined = Buffer.concat([carry, buf.subarray(0, need)]);
      start = Math.min(need, buf.length);
      if (joined.length < sequenceLength(carry[0])) {
        this.#carry = joined;
        this.#offset += buf.length;
        return;
      }
      this.#carry = null;
      this.#scan(joined, this.#carryOffset);
    }
    const end = buf.length - incompleteTail(buf, start);
    const body = buf.subarray(start, end);
    if (!isUtf8Fast(body) || body.indexOf(0) !== -1) {
      this.#scan(body, this.#offset + start);
    } else if (!this.#lineFedSinceFault && (body.indexOf(10) !== -1 || body.indexOf(13) !== -1)) {
      this.#lineFedSinceFault = true;
    }
    if (end < buf.length) {
      this.#carry = Buffer.from(buf.subarray(end));
      this.#carryOffset = this.#offset + end;
    }
    this.#offset += buf.length;
  }
  /** Marks the end of the file: a sequence still cut short is a fault. */
  end() {
    if (this.#carry !== null) {
      this.#add(this.#carryOffset, INVALID_UTF8);
      this.#carry = null;
    }
  }
  /** Removes and returns the first fault before `offset`, dropping any others before it. */
  takeBefore(offset) {
    const faults = this.#faults;
    if (faults.length === 0 || faults[0].offset >= offset) return void 0;
    const first = faults[0];
    let n = 1;
    while (n < faults.length && faults[n].offset < offset) n++;
    faults.splice(0, n);
    return first;
  }
  #add(offset, reason) {
    if (!this.#lineFedSinceFault) return;
    this.#faults.push({ offset, reason });
    this.#lineFedSinceFault = false;
  }
  /** The slow path: walks the bytes and records where they go wrong. */
  #scan(buf, base) {
    const len = buf.length;
    let i = 0;
    while (i < len) {
      const b = buf[i];
      if (b < 128) {
        if (b === 0) this.#add(base + i, NUL_BYTE);
        else if (b === 10 || b === 13) this.#lineFedSinceFault = true;
        i++;
        continue;
      }
      const n = validSequenceLength(buf, i);
      if (n === 0) {
        this.#add(base + i, INVALID_UTF8);
        i++;
      } else {
        i += n;
      }
    }
  }
};
function sequenceLength(lead) {
  if (lead >= 240) return 4;
  if (lead >= 224) return 3;
  if (lead >= 192) return 2;
  return 1;
}
function incompleteTail(buf, start) {
  for (let k = 1; k <= 3 && buf.length - k >= start; k++) {
    const b = buf[buf.length - k];
    if ((b & 192) === 128) continue;
    return b >= 194 && b <= 244 && sequenceLength(b) > k ? k : 0;
  }
  return 0;
}
function validSequenceLength(buf, i) {
  const b = buf[i];
  let n;
  let lo = 128;
  let hi = 191;
  if (b >= 194 && b <= 223) n = 2;
  else if (b >= 224 && b <= 239) {
    n = 3;
    if (b === 224) lo = 160;
    if (b === 237) hi = 159;
  } else if (b >= 240 && b <= 244) {
    n = 4;
    if (b === 240) lo = 144;
    if (b === 244) hi = 143;
  } else return 0;
  if (i + n > buf.length) return 0;
  const second = buf[i + 1];
  if (second < lo || second > hi) return 0;
  for (let k = 2; k < n; k++) {
    if ((buf[i + k] & 192) !== 128) return 0;
  }
  return n;
}
function isUtf8Fast(buf) {
  return buf.length === 0 || isUtf8(buf);
}

// src/tables/csv-records.ts
var CsvRecords = class {
  /** Physical line where the next record starts. */
  nextLine;
  /** Set once a bad header ends the reading. */
  stopped = false;
  /** csv-parse's own line count after the last record. */
  #parserLines = 0;
  #header = null;
  #ordinal = 0;
  #pending = [];
  #file;
  #schema;
  #ids;
  #checker;
  #crEndsLines;
  #notify;
  constructor(file, schema, ids, checker, dialect, notify) {
    this.#notify = notify;
    this.#file = file;
    this.#schema = schema;
    this.#ids = ids;
    this.#checker = checker;
    this.#crEndsLines = dialect.crEndsLines;
    this.nextLine = 1 + dialect.skipLines;
  }
  /** Takes one record: its fields, csv-parse's line count after it, the file offset of its end. */
  add(fields, parserLines, endOffset) {
    if (this.stopped) return;
    const file = this.#file;
    const line = this.nextLine;
    const spanned = parserLines - this.#parserLines;
    this.#parserLines = parserLines;
    this.nextLine = line + (spanned === 1 ? 1 : 1 + countLineBreaks(fields, this.#crEndsLines));
    const fault = this.#checker.takeBefore(endOffset);
    if (fault === void 0 && allEmpty(fields)) return;
    const header = this.#header;
    if (header === null) {
      this.#readHeader(fields, line, fault?.reason);
      return;
    }
    const ordinal = ++this.#ordinal;
    if (fault) {
      this.#pending.push(problem({ file, line, reason: fault.reason }));
      return;
    }
    const n = fields.length;
    if (n !== header.written && n !== header.named) {
      this.#pending.push(problem({ file, line, reason: `expected ${header.written} fields like the header, found ${n}` }));
      return;
    }
    for (let k = header.named; k < n; k++) {
      if (fields[k].trim() !== "") {
        this.#pending.push(problem({ file, line, field: `column ${k + 1}`, reason: "has a value but no name in the header" }));
        return;
      }
    }
    const result = header.toRow(n === header.named ? fields : fields.slice(0, header.named), line, ordinal);
    const duplicate = result.ok && this.#ids ? this.#ids.check(file, result.row) : null;
    this.#pending.push(duplicate ? problem(duplicate) : result.ok ? result : refused(result));
  }
  /** The results added since the last call. */
  drain() {
    const out = this.#pending;
    this.#pending = [];
    return out;
  }
  /** The whole-file problem, if any, once every record is in. */
  ending() {
    if (this.#header === null) return problem({ file: this.#file, reason: "file is empty" });
    if (this.#ordinal === 0) {
      return problem({ file: this.#file, reason: `no ${this.#schema.noun}: the file has only a header row` });
    }
    return null;
  }
  #readHeader(fields, line, fault) {
    const file = this.#file;
    let named = fields.length;
    while (named > 1 && fields[named - 1].trim() === "") named--;
    const names = fields.slice(0, named).map((f) => f.trim());
    const found = fault ? [{ file, line, reason: `header: ${fault}` }] : this.#schema.csvHeader(file, names, line, this.#notify);
    if (Array.isArray(found)) {
      const hint = found.length > 0 && named === 1 ? delimiterHint(fields[0]) : "";
      found.forEach((p, i) => this.#pending.push(problem(i === 0 && hint ? { ...p, reason: `${p.reason}${hint}` } : p)));
      this.stopped = true;
    } else {
      this.#header = { written: fields.length, named, toRow: found };
      for (const notice of headerChanges(fields, named)) this.#notify?.(`${file}:${line}: header: ${notice}`);
    }
  }
};
function headerChanges(fields, named) {
  const out = [];
  const trimmed = fields.slice(0, named).flatMap((f, i) => f === f.trim() ? [] : [`column ${i + 1} ${JSON.stringify(f)} as ${JSON.stringify(f.trim())}`]);
  if (trimmed.length > 0) out.push(`read ${trimmed.join(", ")} (spaces around a name are dropped)`);
  const cut = fields.length - named;
  if (cut > 0) {
    const which = cut === 1 ? `column ${named + 1} has` : `columns ${named + 1}\u2013${fields.length} have`;
    out.push(`${which} no name and ${cut === 1 ? "is" : "are"} ignored (a value in ${cut === 1 ? "it" : "them"} is refused)`);
  }
  return out;
}
var OTHER_DELIMITERS = ["|", ":", "^", "~"];
function delimiterHint(header) {
  const d = OTHER_DELIMITERS.find((c) => header.includes(c));
  return d ? ` (the header reads as one column: if the file is separated by "${d}", make its first line sep=${d})` : "";
}
function allEmpty(fields) {
  for (const f of fields) if (f !== "") return false;
  return true;
}
function countLineBreaks(fields, crEndsLines) {
  let n = 0;
  for (const field of fields) {
    for (let i = 0; i < field.length; i++) {
      const c = field.charCodeAt(i);
      if (c === 13) {
        if (field.charCodeAt(i + 1) === 10) {
          n++;
          i++;
        } else if (crEndsLines) {
          n++;
        }
      } else if (c === 10) {
        n++;
      }
    }
  }
  return n;
}

// src/tables/csv-dialect.ts
var DIALECT_HEAD_BYTES = 64 * 1024;
var SNIFFED = [",", ";", "	"];
var SEP_LINE = /^sep=([^\r\n"])(\r\n|\n|\r)/i;
function sniffCsvDialect(head, delimiterByName) {
  const buf = Buffer.from(head.buffer, head.byteOffset, head.length);
  let skipBytes = buf[0] === 239 && buf[1] === 187 && buf[2] === 191 ? 3 : 0;
  let skipLines = 0;
  let delimiter = null;
  let text = buf.toString("latin1", skipBytes, Math.min(buf.length, skipBytes + DIALECT_HEAD_BYTES));
  const sep = SEP_LINE.exec(text);
  if (sep) {
    delimiter = sep[1];
    skipBytes += sep[0].length;
    skipLines = 1;
    text = text.slice(sep[0].length);
  }
  const header = firstLine(text);
  delimiter ??= delimiterByName ?? SNIFFED.find((d) => header.counts.has(d)) ?? ",";
  return { skipBytes, skipLines, delimiter, crEndsLines: header.end === "\r" };
}
function firstLine(text) {
  const counts = /* @__PURE__ */ new Set();
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c === "\n") return { counts, end: "\n" };
    else if (c === "\r") return { counts, end: text[i + 1] === "\n" ? "\r\n" : "\r" };
    else if (c === "," || c === ";" || c === "	") counts.add(c);
  }
  return { counts, end: null };
}

// src/tables/peek-head.ts
async function peekHead(source, bytes) {
  const it = source[Symbol.asyncIterator]();
  const parts = [];
  let size = 0;
  let done = false;
  while (size < bytes) {
    const next = await it.next();
    if (next.done) {
      done = true;
      break;
    }
    const b = asBuffer(next.value);
    parts.push(b);
    size += b.length;
  }
  const head = parts.length === 1 ? parts[0] : Buffer.concat(parts);
  async function* replay() {
    try {
      if (head.length > 0) yield head;
      while (!done) {
        const next = await it.next();
        if (next.done) done = true;
        else yield asBuffer(next.value);
      }
    } finally {
      if (!done) await it.return?.();
    }
  }
  return { head, chunks: replay(), cancel: async () => void await it.return?.() };
}
function asBuffer(chunk) {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
}

// src/tables/csv-reader.ts
var MAX_RECORD_CHARS = 8e6;
async function* readCsv(source, file, schema, ids, opts = {}) {
  const peeked = await peekHead(source, DIALECT_HEAD_BYTES);
  const wide = wideEncoding(peeked.head);
  const binary = notTextReason(peeked.head);
  if (wide || binary) {
    await peeked.cancel();
    yield problem({ file, reason: binary ?? wideEncodingReason(wide, file) });
    return;
  }
  const dialect = sniffCsvDialect(peeked.head, opts.delimiter);
  const checker = new ByteChecker();
  const records = new CsvRecords(file, schema, ids, checker, dialect, opts.notify);
  const parser = parse({
    bom: false,
    delimiter: dialect.delimiter,
    relax_column_count: true,
    skip_empty_lines: false,
    // Fixed rather than sniffed from the first line, so files mixing line endings still parse.
    record_delimiter: ["\r\n", "\n", "\r"],
    max_record_size: MAX_RECORD_CHARS,
    on_record: (fields, ctx) => {
      records.add(fields, ctx.lines, ctx.bytes + dialect.skipBytes);
      return null;
    }
  });
  parser.on("error", () => {
  });
  let error;
  let skip = dialect.skipBytes;
  try {
    for await (const chunk of peeked.chunks) {
      checker.push(chunk);
      let body = asBuffer(chunk);
      if (skip > 0) {
        const cut = Math.min(skip, body.length);
        body = body.subarray(cut);
        skip -= cut;
      }
      error = await write(parser, body);
      for (const result of records.drain()) yield result;
      if (error !== void 0 || records.stopped) break;
    }
    if (error === void 0 && !records.stopped) {
      checker.end();
      error = await finish(parser);
      for (const result of records.drain()) yield result;
    }
  } finally {
    parser.destroy();
    await peeked.chunks.return(void 0);
  }
  if (error !== void 0) {
    if (!(error instanceof CsvError)) throw error;
    yield problem({ file, line: records.nextLine, reason: `${structuralReason(error)} (reading stopped here)` });
  } else if (!records.stopped) {
    const last = records.ending();
    if (last) yield last;
  }
}
function write(parser, chunk) {
  return new Promise((resolve) => parser.write(chunk, (err) => resolve(err ?? void 0)));
}
function finish(parser) {
  return new Promise((resolve) => parser.end((err) => resolve(err ?? void 0)));
}
function structuralReason(err) {
  switch (err.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return "unbalanced quote: a quoted field starting in this record is never closed";
    case "CSV_INVALID_CLOSING_QUOTE":
      return 'unbalanced quote: a closing quote is followed by more text (write a quote inside a quoted field as "")';
    case "INVALID_OPENING_QUOTE":
      return 'stray quote inside an unquoted field (quote the whole field and write inner quotes as "")';
    case "CSV_MAX_RECORD_SIZE":
      return `record longer than ${MAX_RECORD_CHARS} characters (a quote never closed?)`;
    default:
      return err.message;
  }
}

// src/tables/jsonl-reader.ts
var MAX_LINE_BYTES = 8 * 1024 * 1024;
var LF = 10;
var CR = 13;
async function* readJsonl(source, file, schema, ids, notify) {
  const checker = new ByteChecker();
  let line = 0;
  let ordinal = 0;
  let offset = 0;
  let parts = [];
  let partsLength = 0;
  let partsOffset = 0;
  let skipping = false;
  const handle = (buf, start, end, lineOffset) => {
    line++;
    const fault = checker.takeBefore(lineOffset + (end - start) + 1);
    if (lineOffset === 0 && buf[start] === 239 && buf[start + 1] === 187 && buf[start + 2] === 191) {
      start += 3;
    }
    if (end > start && buf[end - 1] === CR) end--;
    if (end === start) return null;
    const text = buf.toString("utf8", start, end);
    if (buf[start] <= 32 && text.trim() === "") return null;
    ordinal++;
    if (fault) return problem({ file, line, reason: fault.reason });
    const parsed = parseJsonExactly(text);
    if (!parsed.ok) return problem({ file, line, reason: parsed.reason });
    const result = schema.jsonRow(file, parsed.value, line, ordinal, notify);
    if (!result.ok) return refused(result);
    const duplicate = ids ? ids.check(file, result.row) : null;
    return duplicate ? problem(duplicate) : result;
  };
  for await (const chunk of source) {
    checker.push(chunk);
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    const base = offset;
    offset += buf.length;
    const wide = base === 0 ? wideEncoding(buf) : null;
    const binary = base === 0 ? notTextReason(buf) : null;
    if (wide || binary) {
      yield problem({ file, reason: binary ?? wideEncodingReason(wide, file) });
      return;
    }
    let start = 0;
    let nl = buf.indexOf(LF);
    if (skipping) {
      checker.takeBefore(nl === -1 ? offset : base + nl + 1);
      if (nl === -1) continue;
      skipping = false;
      start = nl + 1;
      nl = buf.indexOf(LF, start);
    } else if (parts.length > 0) {
      if (nl === -1) {
        parts.push(buf);
        partsLength += buf.length;
        if (partsLength > MAX_LINE_BYTES) {
          line++;
          ordinal++;
          checker.takeBefore(offset);
          yield problem({ file, line, reason: `line longer than ${MAX_LINE_BYTES} bytes` });
          parts = [];
          skipping = true;
        }
        continue;
      }
      parts.push(buf.subarray(0, nl));
      const whole = Buffer.concat(parts);
      parts = [];
      const result = handle(whole, 0, whole.length, partsOffset);
      if (result) yield result;
      start = nl + 1;
      nl = buf.indexOf(LF, start);
    }
    while (nl !== -1) {
      const result = handle(buf, start, nl, base + start);
      if (result) yield result;
      start = nl + 1;
      nl = buf.indexOf(LF, start);
    }
    if (start < buf.length) {
      parts = [buf.subarray(start)];
      partsLength = buf.length - start;
      partsOffset = base + start;
    }
  }
  checker.end();
  if (parts.length > 0) {
    const whole = Buffer.concat(parts);
    const result = handle(whole, 0, whole.length, partsOffset);
    if (result) yield result;
  }
  if (ordinal === 0) yield problem({ file, reason: "file is empty" });
}

// src/tables/table-reader.ts
function readTable(path, schema, opts = {}) {
  return readChunks(fileChunks(path, opts.tap), path, schema, opts.format, opts.checkIds ?? true, opts.onNotice);
}
function readChunks(source, file, schema, format, checkIds, onNotice) {
  const chosen = format ?? formatFromName(file);
  const ids = checkIds ? new DuplicateIds() : null;
  const notify = onNotice ? once(onNotice) : void 0;
  if (chosen === "csv" || chosen === "tsv") return readCsv(source, file, schema, ids, { delimiter: chosen === "tsv" ? "	" : void 0, notify });
  if (chosen === "jsonl") return readJsonl(source, file, schema, ids, notify);
  return readSniffed(source, file, schema, ids, notify);
}
function once(notify) {
  const said = /* @__PURE__ */ new Set();
  return (text) => {
    if (said.has(text)) return;
    said.add(text);
    notify(escapeControls(text));
  };
}
async function* readSniffed(source, file, schema, ids, notify) {
  const first = await source.next();
  const head = first.done ? Buffer.alloc(0) : first.value;
  const sniffed = sniffFormat(head, file);
  if ("reason" in sniffed) {
    await source.return(void 0);
    yield problem({ file, reason: sniffed.reason });
    return;
  }
  async function* replayed() {
    if (!first.done) yield head;
    yield* source;
  }
  yield* sniffed.format === "jsonl" ? readJsonl(replayed(), file, schema, ids, notify) : readCsv(replayed(), file, schema, ids, { notify });
}

export {
  formatFromName,
  questionSchema,
  duplicateIdProblem,
  problemsOf,
  readTable,
  readChunks
};
//# sourceMappingURL=chunk-UZQXFT2K.mjs.map
