import { readFileSync } from 'node:fs';

/** resq's version, read from its package.json: two folders up from src/cli and from dist/cli alike. */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
