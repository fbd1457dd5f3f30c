import type { Argv } from 'yargs';
import type { CommandContext } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';

/** Flags of `resq policy check`. */
export interface PolicyCheckArgs {
  policy: string;
  batch: string;
  db: string;
  json: boolean;
}

/**
 * `resq policy check POLICY --batch B`: how the policy file would have decided every pause
 * of the batch, against what was decided (by policy or by a person). Text: a table by tool
 * and the pauses it would decide otherwise; `--json`: the comparison as one object.
 */
export async function policyCheckHandler(a: PolicyCheckArgs, io: CliIo): Promise<number> {
  const [{ loadPolicyFile }, { openBatch }, { readPolicyCheck }, { policyCheckText }] = await Promise.all([
    import('../../config/policy-file.js'),
    import('../open-batch.js'),
    import('../../review/policy-check.js'),
    import('../text/policy-check-text.js'),
  ]);
  const policy = await loadPolicyFile(a.policy);
  const { store, batch } = await openBatch(a.db, a.batch);
  try {
    const check = await readPolicyCheck(store, batch, policy);
    if (a.json) io.stdout.write(`${JSON.stringify({ type: 'policy-check', policy: a.policy, batch: batch.name, ...check })}\n`);
    else io.stdout.write(policyCheckText(a.policy, batch.name, check));
    return EXIT.ok;
  } finally {
    await store.close();
  }
}

/** Registers `resq policy check`. */
export function policyCommand(y: Argv, ctx: CommandContext): Argv {
  return y.command('policy', 'try a policy file on past pauses before the next batch', (m) =>
    m
      .command(
        'check <policy>',
        'how a policy file would have decided every pause of a batch, against what was decided (by tool: counts and cost; then the pauses it would decide otherwise)',
        (x) =>
          x
            .positional('policy', { type: 'string', demandOption: true, describe: 'policy file (YAML or JSON)' })
            .option('batch', { type: 'string', demandOption: true, describe: 'the batch whose pauses to replay (name or id)' }),
        async (argv) => {
          ctx.code = await policyCheckHandler(argv as unknown as PolicyCheckArgs, ctx.io);
        },
      )
      .demandCommand(1, 'name a policy command: check'),
  );
}
