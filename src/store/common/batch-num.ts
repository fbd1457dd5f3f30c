/**
 * The batch's integer key (`batches.num`, by which every table names its batch since 020)
 * looked up by its public id bound at `param`, inside a statement: one seek in the batches'
 * key, no round trip (both databases run an uncorrelated subquery once per statement). The
 * items indexes are keyed by it. Standard SQL; both adapters use it.
 */
export const batchNumOf = (param = '?'): string => `(SELECT num FROM batches WHERE id = ${param})`;
