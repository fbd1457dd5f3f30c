import type { CliIo } from './io.js';

/**
 * What a command registrar gets besides the parser: the IO to use and where its handler puts
 * the exit code it returns (commands are functions of their arguments and an output sink).
 */
export interface CommandContext {
  io: CliIo;
  code: number | null;
  /** The command line as given (to tell a flag given from its default). */
  argv?: readonly string[];
}
