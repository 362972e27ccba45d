/**
 * Test controls under `/_emulator` (no key; over HTTP only from loopback): read the state, move the clock, set
 * faults, reset to the fixtures. Not part of the spec.
 */
import type { Hono } from 'hono';
import { check } from '../data-only.js';
import type { AppEnv } from '../app-env.js';
import { ClockRequest, FaultsRequest, type Faults } from '../options.js';
import { invalid, json, ok } from '../respond.js';
import type { EmulatorState } from '../store.js';

/** What the control routes act on: the emulator's own methods. */
export interface Controls {
  state(): EmulatorState;
  advanceClock(ms: number): void;
  setFaults(faults: Partial<Faults>): void;
  faults(): Faults;
  now(): string;
  reset(): void;
}

/** Registers the control routes. */
export function controlRoutes(app: Hono<AppEnv>, controls: Controls): void {
  app.get('/_emulator/state', (c) => json(c, controls.state()));

  app.post('/_emulator/clock', (c) => {
    const checked = check(ClockRequest, c.get('json'));
    if (!checked.success) return invalid(c, checked.details);
    try {
      controls.advanceClock(checked.data.advanceMs);
    } catch (error) {
      // A move past the last instant the clock may reach: bad input, refused before anything moved.
      return invalid(c, [{ path: 'advanceMs', message: (error as Error).message }]);
    }
    return ok(c, { now: controls.now() });
  });

  app.post('/_emulator/faults', (c) => {
    const checked = check(FaultsRequest, c.get('json'));
    if (!checked.success) return invalid(c, checked.details);
    controls.setFaults(checked.data);
    return ok(c, controls.faults());
  });

  app.post('/_emulator/reset', (c) => {
    controls.reset();
    return ok(c, { now: controls.now() });
  });
}
