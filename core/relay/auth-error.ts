/** How a game client's relay calls report that the game's own authentication was refused. */
import { RelayAuthError } from '../http/errors.js';
import type { ErrorDetail } from '../schema/errors.js';

/**
 * The {@link RelayAuthError} of a relay's 401/403, as every relay call of a game client throws it (the tracker's
 * sends, the boost and web view calls): `code`, `message` and `details` from the relay's error body when it has
 * them (or from the error made of it), else the status's. Built directly rather than through
 * `errorFromResponse`, whose table of every error class would otherwise ride in every tracker bundle.
 */
export function relayAuthError(status: 401 | 403, body: { code?: string; message?: string; details?: ErrorDetail[] } | undefined, headers: Headers | undefined): RelayAuthError {
  return new RelayAuthError({ status, headers, code: body?.code ?? (status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN'), message: body?.message ?? `HTTP ${status}`, details: body?.details });
}

