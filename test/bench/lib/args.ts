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
