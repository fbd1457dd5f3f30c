import { z } from 'zod';

/** Answer to `confirm_scope`: true runs the plan, false gives the narrow alternative. */
export const ConfirmScopeAnswerSchema = z.object({ approved: z.boolean() });
/** Answer to `confirm_scope`. */
export type ConfirmScopeAnswer = z.infer<typeof ConfirmScopeAnswerSchema>;

/** Answer to `ask_choice`: chosen option ids (several only when allowMultiple), or declined. */
export const AskChoiceAnswerSchema = z.discriminatedUnion('decision', [
  z.object({
    decision: z.literal('chosen'),
    chosen: z.array(z.string()).min(1),
    /** Read by the agent. */
    note: z.string().optional(),
  }),
  z.object({
    decision: z.literal('declined'),
    /** Read by the agent. */
    note: z.string().optional(),
  }),
]);
/** Answer to `ask_choice`. */
export type AskChoiceAnswer = z.infer<typeof AskChoiceAnswerSchema>;

/** Answer to `request_quality_image`. */
export const QualityImageAnswerSchema = z.object({ approved: z.boolean() });
/** Answer to `request_quality_image`. */
export type QualityImageAnswer = z.infer<typeof QualityImageAnswerSchema>;

/** Any answer `POST /runs/{id}/respond` accepts. */
export const AnswerSchema = z.union([ConfirmScopeAnswerSchema, AskChoiceAnswerSchema, QualityImageAnswerSchema]);
/** Any answer `POST /runs/{id}/respond` accepts. */
export type Answer = z.infer<typeof AnswerSchema>;

/** The answer type for each tool the spec names. */
export interface AnswerByTool {
  confirm_scope: ConfirmScopeAnswer;
  ask_choice: AskChoiceAnswer;
  request_quality_image: QualityImageAnswer;
}

/** A tool whose answer shape the spec gives. */
export type KnownTool = keyof AnswerByTool;

/** `AnswerFor<'ask_choice'>` is `AskChoiceAnswer`; an unknown tool maps to `never`. */
export type AnswerFor<T extends string> = T extends KnownTool ? AnswerByTool[T] : never;

/** Whether the client knows how to answer this tool. */
export function isKnownTool(tool: string): tool is KnownTool {
  return tool === 'confirm_scope' || tool === 'ask_choice' || tool === 'request_quality_image';
}
