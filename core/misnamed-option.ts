/**
 * The server side's check for an option under a name it does not read (`timeout` where `timeoutMs` is meant): server
 * code only (`CampaignServer`, `createRelay`, the webhook verifiers), never reached by a game client's entry.
 */

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * The first of `names` that `options` has as an own field with a value other than `undefined` (a config object's unset
 * field is nothing). Own fields only: under a polluted `Object.prototype` (`Object.prototype.timeout = 5000`, left by a
 * deep merge of untrusted JSON in another package) every options object inherits the name, and the constructor threw
 * in a process that had never passed it, so the game server could not start.
 */
export function misnamedOption(options: object | undefined, names: readonly string[]): string | undefined {
  return names.find((name) => options != null && hasOwn.call(options, name) && (options as Record<string, unknown>)[name] !== undefined);
}
