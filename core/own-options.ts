/**
 * Options read by their own fields only, whatever a polluted `Object.prototype` holds: server code only
 * (`CampaignServer`, `createRelay`, the webhook verifiers, the emulator), never reached by a game client's entry.
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

/** `value`'s own enumerable fields in an object without a prototype: a field it lacks reads `undefined`. */
export function ownFields<T extends object>(value: T): T {
  return Object.assign(Object.create(null), value) as T;
}
