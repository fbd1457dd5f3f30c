import { closest } from '../text/closest-word.js';
import { shellLine } from '../text/shell-quote.js';

export { closest, editDistance } from '../text/closest-word.js';

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
 * "stauts"; did you mean: resq status`: the command last, pasteable), a stray word as such. `topCommands` are the
 * top-level command names (to say a sub-command's full name). Other messages pass unchanged.
 */
export function usageMessage(msg: string, usage: UsageContext, argv: readonly string[], topCommands: readonly string[]): string {
  const words = argv.filter((a) => !a.startsWith('-'));
  const suggested = /^Did you mean (\S+)\?$/.exec(msg)?.[1];
  if (suggested) {
    const typed = closest(suggested, words.filter((w) => w !== suggested)) ?? words.find((w) => w !== suggested) ?? '';
    const at = argv.indexOf(typed);
    const group = argv.slice(0, Math.max(0, at)).find((w) => topCommands.includes(w));
    if (closest(typed, [suggested]) === null) return `unknown command "${typed}"; the commands: ${shellLine(['resq', ...(group ? [group] : []), '--help'])}`;
    return `unknown command "${typed}"; did you mean: ${shellLine(['resq', ...(group ? [group] : []), suggested])}`;
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
