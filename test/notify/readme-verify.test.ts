import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { signatureHeader } from '../../src/notify/sign.js';
import { ROOT } from '../support/cli.js';

// The README's five lines a receiver needs ("Telling the team"), run as written on requests
// resq signs: a fresh one passes, a replayed or altered one fails.

function readmeCheck(): (header: string, rawBody: string, secret: string) => boolean {
  const text = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = text.slice(text.indexOf('\n## Telling the team'));
  const block = /\n```ts\n([\s\S]*?)\n```/.exec(section.slice(0, section.indexOf('\n## ', 1)))![1]!;
  const lines = block.split('\n');
  expect(lines).toHaveLength(5);
  expect(lines[0]).toBe("import { createHmac, timingSafeEqual } from 'node:crypto';");
  // The lines after the import, with node:crypto's two functions given in.
  const fn = new Function('createHmac', 'timingSafeEqual', 'header', 'rawBody', 'secret', `${lines.slice(1).join('\n')}\nreturn valid;`);
  return (header, rawBody, secret) => fn(createHmac, timingSafeEqual, header, rawBody, secret) as boolean;
}

describe("the README's signature check", () => {
  it('passes a fresh signed request and fails a replayed, altered or foreign one', () => {
    const check = readmeCheck();
    const body = '{"id":"b.finished:0","type":"batch.finished"}';
    const now = Date.now() / 1000;
    expect(check(signatureHeader('s3cret', body, now), body, 's3cret')).toBe(true);
    expect(check(signatureHeader('s3cret', body, now - 600), body, 's3cret')).toBe(false);
    expect(check(signatureHeader('s3cret', body, now), body.replace('finished', 'held'), 's3cret')).toBe(false);
    expect(check(signatureHeader('other', body, now), body, 's3cret')).toBe(false);
    expect(check('t=1,v1=abc', body, 's3cret')).toBe(false);
  });
});
