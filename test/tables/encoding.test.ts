import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { wideEncoding, wideEncodingReason } from '../../src/tables/encoding.js';
import { tempDir } from '../support/cli.js';

const b = (...x: number[]) => Buffer.from(x);

describe('wideEncoding', () => {
  it('names UTF-16 and UTF-32 by their byte-order marks', () => {
    expect(wideEncoding(b(0xff, 0xfe, 0x71, 0))).toBe('UTF-16LE');
    expect(wideEncoding(b(0xfe, 0xff, 0, 0x71))).toBe('UTF-16BE');
    expect(wideEncoding(b(0xff, 0xfe, 0, 0))).toBe('UTF-32LE');
    expect(wideEncoding(b(0, 0, 0xfe, 0xff))).toBe('UTF-32BE');
  });

  it('names them without a BOM by the zero bytes of ASCII text', () => {
    expect(wideEncoding(Buffer.from('question', 'utf16le'))).toBe('UTF-16LE');
    expect(wideEncoding(Buffer.from('question', 'utf16le').swap16())).toBe('UTF-16BE');
    expect(wideEncoding(b(0x71, 0, 0, 0, 0x75, 0, 0, 0))).toBe('UTF-32LE');
    expect(wideEncoding(b(0, 0, 0, 0x71))).toBe('UTF-32BE');
  });

  it('leaves UTF-8 (with or without BOM), short and empty heads alone', () => {
    expect(wideEncoding(Buffer.from('\ufeffquestion'))).toBeNull();
    expect(wideEncoding(Buffer.from('id,question'))).toBeNull();
    expect(wideEncoding(b(0x71, 0))).toBeNull();
    expect(wideEncoding(b())).toBeNull();
  });

  it('says how to convert', () => {
    expect(wideEncodingReason('UTF-32BE', 'q.csv')).toBe("file is UTF-32 encoded (UTF-32BE); resq reads UTF-8: convert it with iconv -f UTF-32BE -t UTF-8 q.csv > q.utf8.csv");
  });

  it('the printed command, pasted into sh, converts a file without a byte-order mark in either byte order', () => {
    const dir = tempDir();
    const text = 'id,question\nq1,caf\u00e9?\n';
    for (const [encoding, bytes] of [['UTF-16LE', Buffer.from(text, 'utf16le')], ['UTF-16BE', Buffer.from(text, 'utf16le').swap16()]] as const) {
      const name = `my set ${encoding}.csv`;
      writeFileSync(join(dir, name), bytes);
      expect(wideEncoding(bytes)).toBe(encoding);
      const line = wideEncodingReason(encoding, name);
      const pasted = line.slice(line.indexOf('convert it with ') + 'convert it with '.length);
      const r = spawnSync('/bin/sh', ['-c', pasted], { cwd: dir, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      expect(readFileSync(join(dir, `my set ${encoding}.utf8.csv`), 'utf8')).toBe(text);
    }
  });
});
