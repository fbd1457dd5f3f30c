import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  AnswerSchema,
  AskChoiceAnswerSchema,
  isKnownTool,
  type AnswerFor,
  type AskChoiceAnswer,
  type ConfirmScopeAnswer,
} from '../../src/api/answer-schema.js';

describe('answer schemas', () => {
  it('accept every answer shape of the spec', () => {
    expect(AnswerSchema.safeParse({ approved: true }).success).toBe(true);
    expect(AnswerSchema.safeParse({ decision: 'chosen', chosen: ['a', 'b'], note: 'n' }).success).toBe(true);
    expect(AnswerSchema.safeParse({ decision: 'declined' }).success).toBe(true);
  });

  it('refuse a chosen answer without ids and unknown shapes', () => {
    expect(AskChoiceAnswerSchema.safeParse({ decision: 'chosen', chosen: [] }).success).toBe(false);
    expect(AnswerSchema.safeParse({ decision: 'maybe' }).success).toBe(false);
    expect(AnswerSchema.safeParse({ approved: 'yes' }).success).toBe(false);
  });

  it('map tools to their answer types', () => {
    expectTypeOf<AnswerFor<'ask_choice'>>().toEqualTypeOf<AskChoiceAnswer>();
    expectTypeOf<AnswerFor<'confirm_scope'>>().toEqualTypeOf<ConfirmScopeAnswer>();
    expectTypeOf<AnswerFor<'some_tool'>>().toBeNever();
    expect(isKnownTool('request_quality_image')).toBe(true);
    expect(isKnownTool('some_tool')).toBe(false);
  });
});
