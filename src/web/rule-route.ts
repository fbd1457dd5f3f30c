import type { Hono } from 'hono';
import { z } from 'zod';
import { readRuleView } from '../review/policy-check.js';
import type { BatchStore, ReadStore } from '../store/index.js';
import { commandHint } from '../text/command-hint.js';
import { badRequest, queryOf, sendError, sendJson } from './respond.js';
import type { WebEnv } from './write-routes.js';

/** `?items=a,b,c`: the items (at most 1000) whose person-decided pauses the rule is proposed from (none: every such pause of the batch). */
export const RuleQuerySchema = z.object({
  items: z
    .string()
    .optional()
    .transform((s) => (s ? [...new Set(s.split(',').map((x) => x.trim()).filter(Boolean))] : null))
    .refine((l) => l === null || l.length <= 1000, { message: 'items: at most 1000 ids' }),
});

/** The rule that would have decided some pauses as the people did (see readRuleView). */
export const RuleViewSchema = z.object({
  policy: z.record(z.string(), z.unknown()),
  yaml: z.string(),
  notes: z.array(z.string()),
  from: z.number().int(),
  skipped: z.array(z.string()),
  agrees: z.number().int(),
  pauses: z.number().int(),
  /** The command that tries a policy on the whole batch, pasteable (quoted, with `--db`). */
  check: z.string(),
});

/** GET /api/batches/:batch/rule: "the rule that would have decided these", as JSON. */
export function ruleRoutes(app: Hono<WebEnv>, d: { store: BatchStore & ReadStore; /** The database `resq serve` was given (`--db` of the hint). */ db?: string | undefined }): void {
  app.get('/api/batches/:batch/rule', async (c) => {
    const q = RuleQuerySchema.safeParse(queryOf(c));
    if (!q.success) return badRequest(c, 'query', q.error);
    const batch = await d.store.findBatch(c.req.param('batch'));
    if (!batch) return sendError(c, 404, 'RESQ_NOT_FOUND', `no batch named "${c.req.param('batch')}"`);
    const check = commandHint(['resq', 'policy', 'check', 'POLICY', '--batch', batch.name], { db: d.db });
    return sendJson(c, RuleViewSchema, { ...(await readRuleView(d.store, batch, q.data.items)), check });
  });
}
