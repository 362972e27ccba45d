/** The Hono environment every emulator route and middleware shares, and the services they reach. */
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import type { LatencyWaits } from './middleware/faults.js';
import type { EmulatorKeys } from './options.js';
import type { Store } from './store.js';
import type { WebhookDispatcher } from './webhook-delivery.js';

/** Bindings are present over HTTP (`@hono/node-server`); `c.env` is undefined when `emulator.fetch` is called in-process. */
export interface AppEnv {
  Bindings: Partial<HttpBindings>;
  Variables: {
    /** The API key that authenticated the request (client and server routes). */
    apiKey: string;
    /** The parsed JSON body of a POST/PUT. */
    json: unknown;
  };
}

/** A request context of the emulator app. */
export type AppContext = Context<AppEnv>;

/** What route handlers work with. */
export interface Services {
  store: Store;
  webhooks: WebhookDispatcher;
  latency: LatencyWaits;
  keys: EmulatorKeys;
  random: () => number;
  /** Hosts besides loopback that webhook receivers may name (`webhookHosts`, normalized). */
  webhookHosts: ReadonlySet<string>;
}
