/** Edit distance between two words (insertions, deletions, substitutions, swapped neighbours). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  return d[a.length]![b.length]!;
}

/** The known word closest to `word`, when it is close enough to be what was meant (else null). */
export function closest(word: string, known: Iterable<string>): string | null {
  let best: string | null = null;
  let bestD = Infinity;
  for (const k of known) {
    const d = editDistance(word.toLowerCase(), k.toLowerCase());
    if (d < bestD) [best, bestD] = [k, d];
  }
  return best !== null && bestD <= Math.max(1, Math.min(3, Math.floor(word.length / 3))) ? best : null;
}

/** What yargs' fail handler is given as its third argument: the help of the command it was in. */
export interface UsageContext {
  getDescriptions(): Record<string, unknown>;
  getCommands(): readonly (readonly [string, ...unknown[]])[];
}

/** Whether the command line gives `name` as a flag (`--name`, `--name=…`, `-n`). */
function givenAsFlag(name: string, argv: readonly string[]): boolean {
  const flag = name.length === 1 ? `-${name}` : `--${name}`;
  return argv.some((a) => a === flag || a.startsWith(`${flag}=`));
}

/**
 * Rewrites a usage mistake yargs reports in words that say what to do: each unknown option
 * with the known one it is closest to (`unknown option --concurency: did you mean
 * --concurrency?`), a mistyped command with the command it is closest to (`unknown command
 * "stauts": did you mean \`resq status\`?`), a stray word as such. `topCommands` are the
 * top-level command names (to say a sub-command's full name). Other messages pass unchanged.
 */
export function usageMessage(msg: string, usage: UsageContext, argv: readonly string[], topCommands: readonly string[]): string {
  const words = argv.filter((a) => !a.startsWith('-'));
  const suggested = /^Did you mean (\S+)\?$/.exec(msg)?.[1];
  if (suggested) {
    const typed = closest(suggested, words.filter((w) => w !== suggested)) ?? words.find((w) => w !== suggested) ?? '';
    const at = argv.indexOf(typed);
    const group = argv.slice(0, Math.max(0, at)).find((w) => topCommands.includes(w));
    if (closest(typed, [suggested]) === null) return `unknown command "${typed}" (resq ${group ? `${group} ` : ''}--help lists them)`;
    return `unknown command "${typed}": did you mean \`resq ${group ? `${group} ` : ''}${suggested}\`?`;
  }
  const m = /^Unknown arguments?: (.+)$/.exec(msg);
  if (!m) return msg;
  const options = Object.keys(usage.getDescriptions()).filter((n) => n.length > 1);
  const commands = usage.getCommands().map((c) => c[0].split(' ')[0]!);
  return m[1]!
    .split(', ')
    .map((raw) => {
      if (givenAsFlag(raw, argv)) {
        if (raw === 'version') return 'unknown option --version: it goes alone (resq --version)';
        const near = raw.length > 1 ? closest(raw, options) : null;
        return `unknown option ${raw.length === 1 ? '-' : '--'}${raw}${near ? `: did you mean --${near}?` : ''}`;
      }
      if (commands.length) {
        const near = closest(raw, commands);
        return `unknown command "${raw}"${near ? `: did you mean ${near}?` : ` (one of ${commands.join(', ')})`}`;
      }
      return `unexpected argument "${raw}"`;
    })
    .join('; ');
}
