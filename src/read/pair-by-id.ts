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
      if (!aDone) {
        const r = await ia.next();
        if (r.done === true) aDone = true;
        else {
          const x = r.value as A;
          const partner = waitingB.get(x.id);
          if (partner === undefined) waitingA.set(x.id, x);
          else {
            waitingB.delete(x.id);
            yield [x, partner];
          }
        }
      }
      if (!bDone) {
        const r = await ib.next();
        if (r.done === true) bDone = true;
        else {
          const y = r.value as B;
          const partner = waitingA.get(y.id);
          if (partner === undefined) waitingB.set(y.id, y);
          else {
            waitingA.delete(y.id);
            yield [partner, y];
          }
        }
      }
    }
  } finally {
    // A consumer that stops early (a page's limit) ends both reads.
    await Promise.all([ia.return?.(), ib.return?.()]);
  }
}
