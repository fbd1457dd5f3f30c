import { parseScript, type FileKind, type PauseSpec, type Script } from './directives.js';
import type { Chain } from './chain.js';
import { deepValue, HOSTILE_FILE_NAME, hostileMarkdown, hostileText, hugeInput } from './hostile.js';
import { judgeCaseOf, judgeReply, judgeScript } from './judge.js';
import { hashString } from './rng.js';

/** A tool the simulated agent calls during a run; `file` when it makes one. */
export interface PlannedTool {
  tool: string;
  input: Record<string, unknown>;
  file?: { kind: FileKind; role: string; name: string | undefined };
}

/** How a run ends. */
export type PlannedEnd =
  | { kind: 'pause'; tool: string; input: Record<string, unknown> }
  | { kind: 'final'; status: string; error: { code: string; message: string } | null };

/** Everything one run of a chain does, decided up front. */
export interface StepPlan {
  /** The whole answer text; it reaches clients in `deltas` pieces. */
  text: string;
  deltas: number;
  tools: PlannedTool[];
  end: PlannedEnd;
}

/** Output payload and file role of each file-making tool. */
export const FILE_TOOLS: Record<FileKind, { tool: string; role: string; base: string }> = {
  pdb: { tool: 'fold_protein', role: 'structureId', base: 'structure' },
  png: { tool: 'make_figure', role: 'figure', base: 'figure' },
  csv: { tool: 'write_table', role: 'table', base: 'table' },
  md: { tool: 'write_report', role: 'report', base: 'report' },
  svg: { tool: 'make_figure', role: 'figure', base: 'figure' },
  html: { tool: 'write_report', role: 'report', base: 'page' },
};

/** Residue count of the structures made for a question (stable per question). */
export function residuesFor(question: string): number {
  return 60 + (hashString(question) % 240);
}

/** The directives of a chain's question (parsed again each time: a chain keeps only its input). */
export function scriptOf(chain: Chain): Script {
  const judging = judgeCaseOf(chain.input);
  return judging ? judgeScript(judging) : parseScript(chain.input);
}

/** Decides what run number `step` of a chain does. */
export function planStep(chain: Chain, step: number, s: Script = scriptOf(chain)): StepPlan {
  const question = s.question || 'the question';
  const search: PlannedTool = { tool: 'search_literature', input: { query: question, limit: 5 } };
  const pause = chain.narrow ? undefined : s.pauses[step];
  const context = chain.earlierMessages > 0 ? ` Continuing a thread with ${chain.earlierMessages} earlier messages.` : '';

  if (pause) {
    const lead = step === 0 ? `Working on: "${question}".${context}` : `Carrying on after ${chain.answers.at(-1) ?? 'your answer'}.`;
    return {
      text: `${lead} Before going further I need a decision (${pause.tool}).`,
      deltas: s.deltas,
      tools: s.search ? [search] : [],
      end: { kind: 'pause', tool: pause.tool, input: hostileValues(s, s.hostile ? hostilePause(pauseInput(pause, question, s)) : pauseInput(pause, question, s)) },
    };
  }

  const tools: PlannedTool[] = s.search ? [search] : [];
  const used = new Map<string, number>();
  const files = s.hostile ? [...s.files, { kind: 'md' as const, named: true }, { kind: 'svg' as const, named: true }, { kind: 'html' as const, named: true }] : s.files;
  files.forEach((f, i) => {
    const meta = FILE_TOOLS[f.kind];
    let name: string | undefined;
    if (f.named) {
      const n = (used.get(f.kind) ?? 0) + 1;
      used.set(f.kind, n);
      name = i === 0 && s.filename !== undefined ? s.filename : `${meta.base}${n > 1 ? `-${n}` : ''}.${f.kind}`;
      if (s.hostile && i === s.files.length) name = HOSTILE_FILE_NAME;
    }
    tools.push({ tool: meta.tool, input: toolInput(f.kind, question), file: { kind: f.kind, role: meta.role, name } });
  });

  // A judging question is answered with its verdict first (judge.ts).
  const lines = s.judge ? judgeReply(s.judge) : [`## Answer`, '', `Simulated answer to: "${question}".${context}`];
  if (chain.answers.length) lines.push('', `Decisions: ${chain.answers.join('; ')}.`);
  if (chain.narrow) lines.push('', 'Narrow answer: the scope was declined, so this answer keeps to the literature only.');
  if (s.hostile) lines.push('', hostileMarkdown());
  const names = tools.filter((t) => t.file).map((t) => t.file?.name ?? `(unnamed ${t.file?.kind})`);
  if (names.length) lines.push('', `Files: ${names.join(', ')}.`);

  let end: PlannedEnd = { kind: 'final', status: 'completed', error: null };
  if (s.fail) {
    lines.push('', 'The agent could not finish: simulated failure.');
    end = { kind: 'final', status: 'failed', error: { code: 'agent_error', message: 'simulated failure (@fail)' } };
  } else if (s.status !== undefined && s.status !== 'running') {
    end = { kind: 'final', status: s.status, error: null };
  }
  return { text: lines.join('\n'), deltas: s.deltas, tools, end };
}

/** A pause's input with the values `@huge` and `@deep` ask for. */
function hostileValues(s: Script, input: Record<string, unknown>): Record<string, unknown> {
  const sized = s.hugeChars === undefined ? input : hugeInput(input, s.hugeChars);
  return s.deepLevels === undefined ? sized : { ...sized, nested: deepValue(s.deepLevels) };
}

function pauseInput(p: PauseSpec, question: string, s: Script): Record<string, unknown> {
  switch (p.tool) {
    case 'confirm_scope': {
      const input: Record<string, unknown> = {
        objective: `Answer "${question}" with a full analysis`,
        steps: ['Search the literature', 'Fold the candidate structures', 'Write the report with figures'],
        instead: 'Answer from the literature only, without new computation',
      };
      if ('cost' in p && p.cost !== undefined) input.cost = p.cost;
      return input;
    }
    case 'ask_choice': {
      const options = [
        { id: 'a', label: 'Homology model', description: 'Fast, uses known templates' },
        { id: 'b', label: 'De novo folding', description: 'Slower, no template needed' },
        { id: 'c', label: 'Literature only', description: 'No computation' },
      ];
      if (s.repeatOptions) options.splice(1, 0, { ...options[0]!, label: 'Homology model (again)' });
      return {
        question: 'Which route should the analysis take?',
        options,
        allowMultiple: 'allowMultiple' in p && p.allowMultiple === true,
      };
    }
    case 'request_quality_image':
      return { prompt: `Publication-quality figure for: ${question}`, reason: 'A high-quality render costs extra credits' };
    default:
      return { detail: `The agent needs an answer for ${p.tool} before going on` };
  }
}

function toolInput(kind: FileKind, question: string): Record<string, unknown> {
  switch (kind) {
    case 'pdb':
      return { sequence: sequenceFor(residuesFor(question)), recycles: 3 };
    case 'png':
      return { kind: 'bar', title: question };
    case 'csv':
      return { columns: ['index', 'residue', 'plddt'] };
    case 'md':
    case 'html':
      return { title: question };
    case 'svg':
      return { kind: 'vector', title: question };
  }
}

/** A pause's input with a payload in each text a page shows (the plan, the choice and its labels, the prompt). */
function hostilePause(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    if (typeof v === 'string') out[k] = hostileText(v);
    else if (k === 'options' && Array.isArray(v)) out[k] = v.map((o: Record<string, unknown>) => ({ ...o, label: hostileText(String(o.label)) }));
    else if (k === 'steps' && Array.isArray(v)) out[k] = v.map((x) => hostileText(String(x)));
    else out[k] = v;
  }
  return out;
}

const AMINO = 'ACDEFGHIKLMNPQRSTVWY';

/** A deterministic amino-acid sequence of `n` residues. */
export function sequenceFor(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += AMINO[(i * 7 + 3) % AMINO.length];
  return s;
}
