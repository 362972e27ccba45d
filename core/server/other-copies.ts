/**
 * `instanceof` across two copies of this SDK in one Node process: its CJS and ESM builds loaded side by side (the
 * dual package hazard: one module `require`s the package, another `import`s it), each with its own classes.
 * Installed by the server entries' `CampaignServer` module, where that hazard lives; a game client has one copy
 * (its bundler's) and does not carry these bytes.
 * @see docs/decisions.md, "instanceof across copies of the SDK"
 */
import { CampaignError } from '../http/errors.js';

/**
 * Makes `error instanceof SomeError` (every class under `CampaignError`) hold for an error of another copy: the plain
 * prototype check, else an error whose class chain holds a class of this one's name under one named `CampaignError`.
 * assumed: names identify the classes (the built files are not minified; where a minifier renames them, only the
 * plain check holds).
 */
export function acceptOtherCopies(): void {
  Object.defineProperty(CampaignError, Symbol.hasInstance, {
    configurable: true,
    value(this: abstract new (...args: never[]) => unknown, value: unknown): boolean {
      if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
      const names: unknown[] = [];
      for (let proto = typeof value === 'object' && value ? Object.getPrototypeOf(value) : null; proto; proto = Object.getPrototypeOf(proto)) names.push(proto.constructor?.name);
      return names.includes('CampaignError') && names.includes(this.name);
    },
  });
}
