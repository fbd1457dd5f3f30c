/** The kinds of scorer a scorers file may name. */
export const SCORER_KINDS = ['includes', 'exact', 'regex', 'number', 'files', 'json', 'command', 'agent'] as const;

/** A scorer's kind: how it judges an answer. */
export type ScorerKind = (typeof SCORER_KINDS)[number];

/** The kinds judged in this process without the service: every kind but `agent`. */
export type LocalScorerKind = Exclude<ScorerKind, 'agent'>;

/** A named scorer as a scorers file gives it. */
export interface ScorerSpec {
  /** Its name, unique in the file (letters, digits, `_` and `-`): a CSV column is named for it. */
  name: string;
  kind: ScorerKind;
  /**
   * The SHA-256 (hex, first 16 digits) of the canonical JSON of its kind and settings
   * (scorers-file.ts `scorerVersion`): a verdict is kept per version, so changed settings judge again.
   */
  version: string;
  /** Its settings with their defaults filled in (`pattern`, `tolerance`, `names`, `rubric`, …): every key but name and kind. */
  settings: Record<string, unknown>;
}

/** A scorer as a store key: its name and the version of its settings. */
export interface ScorerRef {
  name: string;
  version: string;
}

/** What one scorer said of one item's answer. */
export interface Verdict {
  scorer: string;
  version: string;
  /** Whether the answer passed; null: unscored, `reason` says why (a scorer that failed, no verdict line). */
  pass: boolean | null;
  /** A score from 0 to 1; null when the scorer gave none or the item is unscored. */
  score: number | null;
  reason: string;
  /** When it was judged (ISO 8601). */
  scoredAt: string;
  /** What judged: the kind (`includes`), `command:<name>`, `agent:<run id>`. */
  by: string;
}

/** A scorer's counts over a batch's completed items; an item without its verdict counts as unscored. */
export interface ScorerTotals {
  scorer: string;
  version: string;
  passed: number;
  failed: number;
  unscored: number;
}

/** A completed item's verdicts, in seq order (`verdictsPage`): what export, compare and the report read. */
export interface ItemVerdicts {
  itemId: string;
  seq: number;
  verdicts: Verdict[];
}
