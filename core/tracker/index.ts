/**
 * The offline playtime tracker: `PlaytimeTracker`, its options and its events.
 * @see DESIGN section 5
 */
export { PlaytimeTracker } from './tracker.js';
export { DROP_REASONS } from './events.js';
export { TRACKER_DEFAULTS, type PlaytimeTrackerOptions, type StartSessionOptions } from './options.js';
export type {
  DropReason,
  DroppedEvent,
  FlushedEvent,
  SessionEndEvent,
  SessionEndReason,
  SessionStartEvent,
  TrackedSession,
  TrackerErrorEvent,
  TrackerEventMap,
  TrackerListener,
} from './events.js';
export type { RelayHeaders, RelayTarget } from '../relay/sender.js';
