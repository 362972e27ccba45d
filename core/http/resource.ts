import type { Transport } from './transport.js';

/** A group of methods of one API area; each method is a call on the single request path. */
export abstract class Resource {
  // `declare`: assigned below, so no field initialiser is emitted (smaller client bundles).
  declare protected readonly transport: Transport;
  constructor(transport: Transport) {
    this.transport = transport;
  }
}
