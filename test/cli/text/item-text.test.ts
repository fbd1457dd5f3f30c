import { describe, expect, it } from 'vitest';
import { answerFlags, describePause, formatItem } from '../../../src/cli/text/item-text.js';
import { answerFor, type PersonReply } from '../../../src/runner/index.js';
import type { ChainRun, ItemView, Pause } from '../../../src/read/index.js';

const item: ItemView['item'] = {
  id: 'plan\u001b[31m', seq: 0, line: 2, question: 'Fold it\u0007', threadKey: null, meta: { topic: 'x' }, expected: null, state: 'held',
  threadId: 't', runStatus: 'requires_action', text: 'so far', error: null, errorCode: null,
  holdReason: 'cost 50 over 10', startedAt: null, finishedAt: null, attempt: 0,
};

function run(r: Partial<ChainRun> & Pick<ChainRun, 'status'>): ChainRun {
  return { id: 'r1', step: 0, parentRunId: null, createdAt: '2026-01-01T00:00:00Z', finishedAt: null, seconds: null, endedUnwatched: false, pausedOn: null, errorCode: null, error: null, ...r };
}

function view(v: { item?: Partial<ItemView['item']>; runs?: ChainRun[]; pauses?: Pause[]; next?: ItemView['next']; wait?: ItemView['wait']; verdicts?: ItemView['verdicts'] }): ItemView {
  return { batch: { id: 'b', name: 'demo' }, item: { ...item, ...v.item }, runs: v.runs ?? [], pauses: v.pauses ?? [], next: v.next ?? null, wait: v.wait ?? null, files: [], verdicts: v.verdicts ?? [] };
}

describe('describePause', () => {
  it('shows a plan with its steps, cost and the narrow alternative', () => {
    expect(describePause('confirm_scope', { objective: 'Fold', steps: ['a', 'b'], cost: 50, instead: 'narrow' })).toEqual([
      'objective: Fold', 'step 1: a', 'step 2: b', 'cost: 50', 'instead (if declined): narrow',
    ]);
  });
  it('shows each option with its label and unknown fields verbatim', () => {
    expect(describePause('ask_choice', { question: 'Which?', options: [{ id: 'a', label: 'Route A' }, { id: 'b' }], allowMultiple: false, extra: 1 })).toEqual([
      'question: Which?', 'option a: Route A', 'option b', 'several allowed: no', 'extra: 1',
    ]);
  });
});

describe('formatItem', () => {
  it('shows the expected answer beside the question and each verdict with its reason, control characters escaped', () => {
    const text = formatItem(
      view({
        item: { state: 'completed', text: 'It is 42.', expected: { total: 42 } },
        verdicts: [
          { scorer: 'mentions', version: 'v1', pass: true, score: 1, reason: 'contains "42"', scoredAt: '2026-01-01T00:00:00.000Z', by: 'includes' },
          { scorer: 'mine', version: 'v2', pass: null, score: null, reason: 'printed \u001b[31mred', scoredAt: '2026-01-01T00:00:01.000Z', by: 'command:mine' },
        ],
      }),
      { db: 'x.db' },
    );
    expect(text).toContain('expected: {"total":42}\nanswer:');
    expect(text).toContain('verdict mentions: pass (score 1): contains "42" (by includes, 2026-01-01T00:00:00.000Z)');
    expect(text).toContain('verdict mine: unscored: printed \\x1b[31mred (by command:mine, 2026-01-01T00:00:01.000Z)');
    expect(formatItem(view({ item: { expected: 'Paris' } }), { db: 'x.db' })).toContain('expected: Paris');
    expect(formatItem(view({}), { db: 'x.db' })).not.toContain('expected:');
  });

  it('shows the held pause in full with the command to answer it, and no raw control characters', () => {
    const text = formatItem(
      view({
        runs: [run({ status: 'requires_action', pausedOn: 'confirm_scope', finishedAt: '2026-01-01T00:00:02Z', seconds: 2 })],
        pauses: [{ runId: 'r1', tool: 'confirm_scope', input: { objective: 'Fold', cost: 50 }, untrustedCost: null, decision: null, waiting: 'person' }],
      }),
      { db: 'x.db' },
    );
    expect(text).toContain('paused on confirm_scope:');
    expect(text).toContain('cost: 50');
    expect(text).toContain(`held for a person (cost 50 over 10); answer (or --decline): resq answer demo "$(printf 'plan\\033[31m')" --run r1 --approve --db x.db`);
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
  });

  it('says a run ended while resq was stopped, at or before when it was found, instead of a length', () => {
    const text = formatItem(view({ item: { state: 'completed' }, runs: [run({ status: 'completed', finishedAt: '2026-01-01T00:00:09Z', seconds: null, endedUnwatched: true })] }), { db: 'x.db' });
    expect(text).toContain('r1 step 0: completed (ended while resq was stopped, at or before 2026-01-01T00:00:09Z)');
    expect(formatItem(view({ runs: [run({ status: 'completed', finishedAt: '2026-01-01T00:00:09Z', seconds: 1.5, endedUnwatched: true })] }), { db: 'x.db' })).toContain('r1 step 0: completed in 1.5 s');
  });
});

describe('answerFlags', () => {
  const reply: Record<string, PersonReply> = { '--approve': { kind: 'approve' }, '--decline': { kind: 'decline' }, '--choose': { kind: 'choose', ids: ['a'] } };
  const input = { options: [{ id: 'a' }] };
  for (const tool of ['confirm_scope', 'request_quality_image', 'ask_choice', 'book_instrument']) {
    it(`suggests for ${tool} exactly the flags resq answer accepts`, () => {
      const suggested: string[] = answerFlags(tool).match(/--\w+/g) ?? [];
      expect(suggested.length).toBeGreaterThan(0);
      for (const [flag, r] of Object.entries(reply)) {
        const accepted = (() => {
          try {
            answerFor(tool, input, r);
            return true;
          } catch {
            return false;
          }
        })();
        expect(suggested.includes(flag), `${tool} ${flag}`).toBe(accepted);
      }
    });
  }

  it('resq show of a pause of an unknown tool offers no --choose', () => {
    const text = formatItem(
      view({
        item: { id: 'booking' },
        runs: [run({ status: 'requires_action', pausedOn: 'book_instrument' })],
        pauses: [{ runId: 'r1', tool: 'book_instrument', input: { hours: 2 }, untrustedCost: null, decision: null, waiting: 'person' }],
      }),
      { db: 'x.db' },
    );
    expect(text).toContain('answer (or --decline): resq answer demo booking --run r1 --approve --db x.db');
    expect(text).not.toContain('--choose');
  });

  it("shows the service's error code and message on the item and its failed run, escaped", () => {
    const message = 'simulated failure\u001b[31m\nsecond line';
    const text = formatItem(
      view({
        item: { state: 'failed', runStatus: 'failed', holdReason: null, text: null, error: message, errorCode: 'agent_error' },
        runs: [run({ status: 'failed', errorCode: 'agent_error', error: message, finishedAt: '2026-01-01T00:00:01Z', seconds: 1 })],
      }),
      { db: 'x.db' },
    );
    expect(text).toContain('error (agent_error):\n    simulated failure\\x1b[31m\n    second line');
    expect(text).toContain('  r1 step 0: failed in 1.0 s\n    failed (agent_error):\n      simulated failure\\x1b[31m');
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    const oneLine = formatItem(view({ item: { state: 'error', error: 'HTTP 400 POST /runs: bad input', errorCode: null } }), { db: 'x.db' });
    expect(oneLine).toContain('\nerror: HTTP 400 POST /runs: bad input\n');
  });

  it('names who decided each pause, when, and the note; an answer not sent says which command sends it', () => {
    const decision = { tool: 'confirm_scope', by: 'person' as const, person: 'Ana', reason: null, note: 'go ahead', decidedAt: '2026-01-01T00:00:05Z', answer: { approved: true }, words: 'approved', cost: 50, overBudget: false };
    const text = formatItem(
      view({
        item: { state: 'waiting', holdReason: null },
        runs: [run({ status: 'requires_action', pausedOn: 'confirm_scope' })],
        pauses: [{ runId: 'r1', tool: 'confirm_scope', input: { cost: 50 }, untrustedCost: null, decision, waiting: 'send' }],
        next: { why: 'no-worker', text: 'no worker running: resq resume demo --db x.db', command: 'resq resume demo --db x.db' },
      }),
      { db: 'x.db' },
    );
    expect(text).toContain('    decided approved by Ana — note: go ahead, 2026-01-01T00:00:05Z');
    expect(text).toContain('    not sent yet (no worker running), to send it: resq resume demo --db x.db');
    expect(text).not.toContain('{"approved":true}');
  });
});
