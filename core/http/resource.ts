import type { Transport } from './transport.js';

/** A group of methods of one API area; each method is a call on the single request path. */
export abstract class Resource {
  protected readonly transport: Transport;
  constructor(transport: Transport) {
    this.transport = transport;
  }
}
