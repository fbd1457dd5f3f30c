import { hideBin } from 'yargs/helpers';
import { runCli } from './cli.js';

process.exitCode = await runCli(hideBin(process.argv));
