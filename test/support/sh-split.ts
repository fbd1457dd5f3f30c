import { spawnSync } from 'node:child_process';

/**
 * The words a real POSIX shell (/bin/sh, or `shell`) splits a command line into: the line is pasted after
 * `set --` as it would be at a prompt, and the shell prints each word NUL-terminated. Nothing in
 * the line runs but what the shell itself would run (a `$(printf …)` resq wrote for a control
 * character); a `;` or a `&&` left unquoted would end the `set` and show as a missing word.
 */
export function shSplit(line: string, shell = '/bin/sh'): string[] {
  const r = spawnSync(shell, ['-c', `set -- ${line}\nprintf '%s\\0' "$@"`], { encoding: 'utf8', cwd: '/' });
  if (r.status !== 0) throw new Error(`sh could not split ${JSON.stringify(line)}: ${r.stderr}`);
  return r.stdout.split('\0').slice(0, -1);
}
