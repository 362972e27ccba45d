/**
 * A timer that does not keep a Node, Bun or Deno process alive on its own: the tracker's flush interval and retry
 * wait, so a headless game, a bot or a tool that never calls `dispose()` still exits when its own work is done (its
 * queue stays stored for the next start-up, as after a closed app), and a webhook receiver's pending `waitFor`.
 * Elsewhere a timer is a number and nothing happens.
 */
export const unref = <T>(timer: T): T => ((timer as { unref?: () => void }).unref?.(), timer);
