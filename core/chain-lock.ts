/**
 * A promise-chain mutex: tasks under one name run one after another within this JavaScript realm. The
 * tracker's fallback when a platform has no `lock`, and the memory platform's `lock`.
 */

/** Runs `task` after every task queued before it under `name` in `chains`; the chain is forgotten once idle. */
export function chainLock<T>(chains: Map<string, Promise<void>>, name: string, task: () => Promise<T>): Promise<T> {
  const result = (chains.get(name) ?? Promise.resolve()).then(task);
  const done = result.then(
    () => undefined,
    () => undefined,
  );
  chains.set(name, done);
  void done.then(() => chains.get(name) === done && chains.delete(name));
  return result;
}
