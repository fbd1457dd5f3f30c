/** Command-line flags of a bench script: `--name value` pairs and bare `--flag`s. */
export interface BenchArgs {
  /** Smaller workloads for development. */
  quick: boolean;
  /** The value after `--name`, or `fallback`. */
  get(name: string, fallback: string): string;
  /** Whether `--name` is present. */
  has(name: string): boolean;
}

/** Parses `process.argv`-style flags. */
export function benchArgs(argv: readonly string[] = process.argv.slice(2)): BenchArgs {
  const get = (name: string, fallback: string): string => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
  };
  const has = (name: string): boolean => argv.includes(`--${name}`);
  return { quick: has('quick'), get, has };
}

/** The runner's own flags, each with its value: what `npm run bench` keeps for itself. */
const RUNNER_FLAGS = ['only', 'json'];

/**
 * The flags `npm run bench` hands each scenario: every one it was given but its own (`--only`,
 * `--json` and their values), so `--rounds 5`, `--config N,C,D` or `--mix few` reach the
 * scenario that reads them.
 */
export function scenarioArgs(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (RUNNER_FLAGS.includes(argv[i]!.replace(/^--/, '')) && argv[i]!.startsWith('--')) {
      i++;
      continue;
    }
    out.push(argv[i]!);
  }
  return out;
}
