/**
 * A promise with a deadline: `work`'s outcome, or `late()`'s once `ms` pass first. The work itself is not stopped;
 * it settles on its own and is ignored. Used where a callback of someone else's may never answer (the relay's
 * `authenticate`, a React Native storage module).
 */
export function withDeadline<T>(work: Promise<T>, ms: number, late: () => T | Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(late()), ms)));
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
