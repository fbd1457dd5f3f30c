/** `x` meets its partner waiting on the other side (taken from there), else waits on its own side. */
function meet<X extends { id: string }, Y>(x: X, own: Map<string, X>, other: Map<string, Y>): Y | undefined {
  const partner = other.get(x.id);
  if (partner === undefined) own.set(x.id, x);
  else other.delete(x.id);
  return partner;
}

/**
 * Pairs two streams by id, reading them side by side: a thing waits in memory only until its
 * partner comes by, so two batches in the same order (a question set asked again) pair with
 * nothing held, and two in other orders hold only what is not paired yet. Pairs come out as
 * they are found; things with no partner are left out.
 */
export async function* pairById<A extends { id: string }, B extends { id: string }>(as: AsyncIterable<A>, bs: AsyncIterable<B>): AsyncGenerator<[A, B]> {
  const ia = as[Symbol.asyncIterator]();
  const ib = bs[Symbol.asyncIterator]();
  const waitingA = new Map<string, A>();
  const waitingB = new Map<string, B>();
  let [aDone, bDone] = [false, false];
  try {
    while (!aDone || !bDone) {
      const ra = aDone ? null : await ia.next();
      if (ra?.done === true) aDone = true;
      else if (ra) {
        const x = ra.value as A;
        const y = meet(x, waitingA, waitingB);
        if (y !== undefined) yield [x, y];
      }
      const rb = bDone ? null : await ib.next();
      if (rb?.done === true) bDone = true;
      else if (rb) {
        const y = rb.value as B;
        const x = meet(y, waitingB, waitingA);
        if (x !== undefined) yield [x, y];
      }
    }
  } finally {
    // A consumer that stops early (a page's limit) ends both reads.
    await Promise.all([ia.return?.(), ib.return?.()]);
  }
}
