// `npm run demo`: the demo pipeline on the built-in simulator, from a clean folder.
// The demo means to show a failure and a held item, so exit codes 1 and 3 are its success.
import { mkdir, rm } from 'node:fs/promises';
import { runCli } from '../src/cli/cli.js';
import { processIo } from '../src/cli/main.js';

const out = 'demo-out';
await rm(out, { recursive: true, force: true });
// resq never creates the folder of --db (a typo there is refused, not made): the demo makes its own.
await mkdir(out, { recursive: true });
const code = await runCli(['run', 'pipelines/demo.yaml', '--sim', '--db', `${out}/resq.db`, '--out', `${out}/files`], processIo());
if (code === 0 || code === 1 || code === 3) {
  process.stdout.write(
    [
      '',
      'The demo ran on the built-in simulator: one question fails and one waits for a person, on purpose.',
      'Look around:',
      `  npx resq status --db ${out}/resq.db`,
      `  npx resq export --db ${out}/resq.db --format jsonl`,
      `  sqlite3 ${out}/resq.db 'select * from item_summary'`,
      `  npx resq answer demo booking --approve --db ${out}/resq.db`,
      `  npx resq resume demo --db ${out}/resq.db   (on the simulator whose state is kept beside the database: the held run carries on)`,
      '',
    ].join('\n'),
  );
  process.exitCode = 0;
} else process.exitCode = code;
