/**
 * The session a service's `VALIDATION_ERROR` names, in the client's own batch. The service numbers the sessions of
 * the body it received (`sessions.1.metadata`); the relay forwards fewer (another user's, implausible and capped
 * sessions stay behind) and may send a large batch in several calls, so its answer renumbers them as the client sent
 * them, as the relay's own details do.
 * @see DESIGN section 6
 */
import { isCampaignError, ValidationError } from '../http/errors.js';
import type { ErrorDetail } from '../schema/errors.js';

const SESSION_PATH = /^sessions\.(\d+)(?=\.|$)/;

/**
 * `error` with each `sessions.<n>` path of its details renumbered by `index` (n in the body sent, to n in the batch
 * it answers for; undefined leaves the path as it is); any other error as it is.
 */
export function renumberSessions(error: unknown, index: (n: number) => number | undefined): unknown {
  if (!isCampaignError(error) || error.code !== 'VALIDATION_ERROR' || !error.details) return error;
  let changed = false;
  const details = error.details.map((detail: ErrorDetail): ErrorDetail => {
    const path = typeof detail?.path === 'string' ? detail.path.replace(SESSION_PATH, (whole, n: string) => {
      const to = index(Number(n));
      return to === undefined ? whole : `sessions.${to}`;
    }) : detail?.path;
    if (path === detail?.path) return detail;
    changed = true;
    return { ...detail, path: path as string };
  });
  if (!changed) return error;
  const { message, code, status, headers } = error;
  return new ValidationError({ message, code, details, cause: error, ...(status !== undefined && { status }), ...(headers && { headers }) });
}
