import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One question of the standard test batch and what its answer must say. */
export interface FixtureItem {
  id: string;
  question: string;
  thread?: string;
  /** Pauses the sim will make (in order). */
  pauses: number;
  /** Substrings the final text must contain (the decisions that reached the agent). */
  expect: string[];
  /** Final item state. */
  state: 'completed' | 'failed';
}

/** The policy the fixture's expectations assume. */
export const FIXTURE_POLICY = `confirm_scope:
  approve_max_cost: 10
  otherwise: decline
ask_choice:
  prefer: [b]
  otherwise: first
  note: picked by test policy
request_quality_image: approve
unknown: hold
`;

/**
 * A batch with every pause type, chains of pauses, files, failures and a thread,
 * scripted for the simulator. `dur` is each run's working time.
 */
export function fixtureItems(dur = '120ms', copies = 1): FixtureItem[] {
  const items: FixtureItem[] = [];
  for (let c = 0; c < copies; c++) {
    const s = (i: number) => `${c}-${i}`;
    items.push(
      { id: s(1), question: `Plain question ${s(1)} @duration=${dur} @files=md`, pauses: 0, expect: [], state: 'completed' },
      { id: s(2), question: `Cheap plan ${s(2)} @duration=${dur} @confirm=3 @files=pdb,png`, pauses: 1, expect: ['confirm_scope: approved'], state: 'completed' },
      { id: s(3), question: `Costly plan ${s(3)} @duration=${dur} @confirm=50 @files=csv`, pauses: 1, expect: ['Narrow answer'], state: 'completed' },
      { id: s(4), question: `Pick one ${s(4)} @duration=${dur} @choice`, pauses: 1, expect: ['ask_choice: chosen b'], state: 'completed' },
      { id: s(5), question: `Pretty figure ${s(5)} @duration=${dur} @image @files=png:noname`, pauses: 1, expect: ['request_quality_image: approved'], state: 'completed' },
      {
        id: s(6),
        question: `Two pauses ${s(6)} @duration=${dur} @confirm=2 @choice=multi @files=md,csv`,
        pauses: 2,
        expect: ['confirm_scope: approved', 'ask_choice: chosen b'],
        state: 'completed',
      },
      { id: s(7), question: `Doomed ${s(7)} @duration=${dur} @fail`, pauses: 0, expect: [], state: 'failed' },
      { id: s(8), question: `Thread start ${s(8)} @duration=${dur} @files=pdb`, thread: `t${c}`, pauses: 0, expect: [], state: 'completed' },
      { id: s(9), question: `Thread follow-up ${s(9)} @duration=${dur} @confirm=1`, thread: `t${c}`, pauses: 1, expect: ['Continuing a thread'], state: 'completed' },
      { id: s(10), question: `Thread end ${s(10)} @duration=${dur}`, thread: `t${c}`, pauses: 0, expect: ['Continuing a thread'], state: 'completed' },
    );
  }
  return items;
}

/** Files the item's runs make: one per entry of its question's `@files=` directive. */
export function expectedFiles(it: FixtureItem): number {
  const m = /@files=(\S+)/.exec(it.question);
  return m ? m[1]!.split(',').length : 0;
}

function csvField(v: string): string {
  return /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** Writes the fixture as a CSV question set and the policy file; returns their paths. */
export function writeFixture(dir: string, items: FixtureItem[]): { questions: string; policy: string } {
  const questions = join(dir, 'questions.csv');
  const lines = ['id,question,thread,kind'];
  for (const it of items) lines.push([it.id, it.question, it.thread ?? '', `pauses-${it.pauses}`].map(csvField).join(','));
  writeFileSync(questions, `${lines.join('\n')}\n`);
  const policy = join(dir, 'policy.yaml');
  writeFileSync(policy, FIXTURE_POLICY);
  return { questions, policy };
}
