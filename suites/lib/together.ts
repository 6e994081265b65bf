/**
 * Independent steps of one test sent together: reads of several resources, set-up of several
 * fixtures. They overlap their waits on the target; the results keep the steps' order, and when
 * some fail the first failing step in that order is the one reported (whichever failed first in
 * time would make the message depend on the timing), after every step has settled.
 */
export async function together<R>(steps: (() => Promise<R>)[]): Promise<R[]> {
  const settled = await Promise.allSettled(steps.map((step) => step()));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<R>).value);
}
