import { rateWords } from '../read/score-rates.js';
import type { EventDoc } from './events.js';

// `--notify-format slack`: a Slack incoming-webhook message, `{"text": …}`, with the links.

/** Slack's three escapes (its own markup uses <, > and &); control characters dropped. */
function esc(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f]/g, ' ').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const link = (url: string | null, text: string): string => (url ? `<${url}|${esc(text)}>` : esc(text));

function money(n: number | null | undefined): string {
  return n === null || n === undefined ? '?' : String(Math.round(n * 100) / 100);
}

/** The message's text: a headline, then up to 20 lines (one per held item), then the command to run. */
export function slackText(e: EventDoc): string {
  return `${slackBody(e)}\n\`${esc(e.hint)}\``;
}

function slackBody(e: EventDoc): string {
  const batch = link(e.link, e.batch.name);
  const c = e.counts;
  switch (e.type) {
    case 'items.held': {
      const items = e.items ?? [];
      const head = `${e.reminder ? 'Still waiting' : 'Waiting'} for a person: ${items.length} item${items.length === 1 ? '' : 's'} held in batch ${batch}`;
      const lines = items.slice(0, 20).map((i) => `• ${link(i.link, i.id)} — ${esc(i.tool ?? 'pause')}, cost ${i.untrustedCost === undefined ? money(i.cost) : esc(i.untrustedCost)}${i.reason ? `: ${esc(i.reason)}` : ''}`);
      if (items.length > 20) lines.push(`… and ${items.length - 20} more`);
      return [head, ...lines].join('\n');
    }
    case 'batch.finished': {
      const failures = Object.entries(e.failures ?? {}).map(([k, n]) => `${esc(k)} ${n}`).join(', ');
      const scores = (e.scores ?? []).map((s) => `${esc(s.name)} ${rateWords(s)}`).join(', ');
      return `Batch ${batch} finished: ${c.completed} completed, ${c.failed} failed, ${c.error} error, ${c.cancelled} cancelled; approved cost ${money(e.approvedCost)}${failures ? `; failures: ${failures}` : ''}${scores ? `; pass rates: ${scores}` : ''}`;
    }
    case 'batch.stalled':
      return `Batch ${batch} has made no progress${e.since ? ` since ${e.since}` : ''}: ${esc(e.reason ?? '')} (${c.held} held, ${c.queued} queued)`;
    case 'budget.reached':
      return `Batch ${batch} reached ${e.share}% of its budget: ${money(e.approved)} of ${money(e.budget)} approved`;
    default:
      return `Batch ${batch}: ${esc(e.type)}`;
  }
}
