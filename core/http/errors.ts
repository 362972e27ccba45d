/**
 * One error hierarchy for everything the SDK throws about the service: a subclass per code of the spec's
 * Errors section, plus connection and time-out errors. Every error carries `status`, `code`, `message`
 * and `details`, whether the service sent a well-formed error body or not.
 * @see spec "Errors"
 */
import { CODE_BY_STATUS, type ErrorDetail } from '../schema/error-codes.js';
import { isRecord } from '../schema/rules.js';

/** Base class of every error the SDK throws about a request. */
export class CampaignError extends Error {
  // `declare`: assigned in the constructor, so no field initialisers are emitted (smaller client bundles).
  override readonly name: string = 'CampaignError';
  /** HTTP status; undefined when no response arrived (connection error, time-out, local validation). */
  declare readonly status: number | undefined;
  /** Machine-readable code, e.g. `NOT_FOUND`, or `CONNECTION_ERROR`/`TIMEOUT` for transport failures. */
  declare readonly code: string;
  /** Field-level problems, for validation errors. */
  declare readonly details: ErrorDetail[] | undefined;
  /** Response headers, when a response arrived. */
  declare readonly headers: Headers | undefined;

  constructor(init: { message: string; code: string; status?: number; details?: ErrorDetail[]; headers?: Headers; cause?: unknown }) {
    super(init.message, { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.headers = init.headers;
  }
}

/** 400/422 `VALIDATION_ERROR`; also thrown locally, before sending, for a request that breaks the spec's rules. */
export class ValidationError extends CampaignError {
  override readonly name = 'ValidationError';
}
/** 400 `BAD_REQUEST`. */
export class BadRequestError extends CampaignError {
  override readonly name: string = 'BadRequestError';
}
/** 400 `BAD_REQUEST` for a boost change inside the 30-day cooldown. */
export class BoostCooldownError extends BadRequestError {
  override readonly name = 'BoostCooldownError';
  /** Days until the boost can change, parsed from the service's message. */
  declare readonly daysRemaining: number;
  constructor(init: ConstructorParameters<typeof CampaignError>[0] & { daysRemaining: number }) {
    super(init);
    this.daysRemaining = init.daysRemaining;
  }
}
/** 401 `UNAUTHORIZED`: the key is wrong. */
export class UnauthorizedError extends CampaignError {
  override readonly name = 'UnauthorizedError';
}
/** 403 `FORBIDDEN`, e.g. a Client key on a Server endpoint. */
export class ForbiddenError extends CampaignError {
  override readonly name = 'ForbiddenError';
}
/** 404 `NOT_FOUND`. */
export class NotFoundError extends CampaignError {
  override readonly name = 'NotFoundError';
}
/** `CONFLICT` (409 assumed: the spec names the code only). */
export class ConflictError extends CampaignError {
  override readonly name = 'ConflictError';
}
/** `INTERNAL_ERROR` (500 assumed), and any other 5xx. */
export class InternalError extends CampaignError {
  override readonly name = 'InternalError';
}
/** 429 `RATE_LIMITED`. */
export class RateLimitError extends CampaignError {
  override readonly name = 'RateLimitError';
  /** How long the service asked us to wait (`Retry-After`), in ms, when it said. */
  declare readonly retryAfterMs: number | undefined;
  constructor(init: ConstructorParameters<typeof CampaignError>[0] & { retryAfterMs?: number | undefined }) {
    super(init);
    this.retryAfterMs = init.retryAfterMs;
  }
}
/** 400 `USER_CODE_LIMIT`: the user has used this coupon as often as it allows. */
export class UserCodeLimitError extends CampaignError {
  override readonly name = 'UserCodeLimitError';
}
/** No response: DNS, refused or dropped connection. `code` is `CONNECTION_ERROR`. */
export class ConnectionError extends CampaignError {
  override readonly name = 'ConnectionError';
}
/** No response within the time-out. `code` is `TIMEOUT`. */
export class TimeoutError extends CampaignError {
  override readonly name = 'TimeoutError';
}
/**
 * The call's `signal` aborted it, during a request or a wait before a retry. `code` is `ABORTED`, `status`
 * undefined, `cause` the signal's reason. assumed: one typed error of this hierarchy rather than the reason
 * itself, so `isCampaignError(error, 'ABORTED')` works and runtimes whose AbortController has no `reason`
 * (React Native's) still get a real error; named `AbortError`, as a `fetch` abort is, so
 * `error.name === 'AbortError'` checks keep working.
 * @example
 * ```ts
 * try { await server.payments.get(id, { signal }); }
 * catch (error) { if (isCampaignError(error, 'ABORTED')) return; throw error; }
 * ```
 */
export class AbortError extends CampaignError {
  override readonly name = 'AbortError';
  constructor(signal: AbortSignal) {
    super({ code: 'ABORTED', message: 'The request was aborted', cause: signal.reason });
  }
}

/**
 * True for any error of this SDK, and when `code` is given, of that code. Checks `name`/`code` rather than
 * `instanceof` alone so that it works across realms and duplicated bundles.
 */
export function isCampaignError(value: unknown, code?: string): value is CampaignError {
  const error = value as Partial<CampaignError> | null;
  if (typeof error !== 'object' || error === null) return false;
  const ok = error instanceof CampaignError || (typeof error.name === 'string' && typeof error.code === 'string' && 'status' in error);
  return ok && (code === undefined || error.code === code);
}

type Init = ConstructorParameters<typeof CampaignError>[0] & { retryAfterMs?: number | undefined };
/** The class of each code (no prototype: a body's `code` of `constructor` or `toString` finds nothing here). */
const BY_CODE = {
  __proto__: null,
  RATE_LIMITED: RateLimitError,
  VALIDATION_ERROR: ValidationError,
  BAD_REQUEST: BadRequestError,
  UNAUTHORIZED: UnauthorizedError,
  FORBIDDEN: ForbiddenError,
  NOT_FOUND: NotFoundError,
  CONFLICT: ConflictError,
  INTERNAL_ERROR: InternalError,
  USER_CODE_LIMIT: UserCodeLimitError,
} as object as Record<string, (new (init: Init) => CampaignError) | undefined>;

/**
 * The days remaining in a cooldown message. assumed: the spec says only that the message states them; we
 * read "... in 12 days" (the emulator's "Boost can be changed again in 12 days") or "12 days remaining".
 */
const COOLDOWN_DAYS = /\bin (\d+) days?\b|\b(\d+) days? remaining\b/i;

/**
 * The typed error for an error response. A body that is not the spec's shape (HTML from a proxy, empty)
 * still yields a typed error: the code then follows from the status. `cooldown`: the request was a boost
 * change, so a BAD_REQUEST stating the days remaining is a `BoostCooldownError`.
 */
export function errorFromResponse(status: number, body: unknown, headers: Headers, retryAfterMs?: number, cooldown?: boolean): CampaignError {
  /** The spec's error body, or nothing of a body without a `code` (a proxy's or a framework's). */
  type Fields = { code?: string; message?: unknown; details?: unknown };
  const fields: Fields = typeof (body as Fields | undefined)?.code === 'string' ? (body as Fields) : {};
  const statusCode = CODE_BY_STATUS[status] ?? (status >= 500 ? 'INTERNAL_ERROR' : 'UNKNOWN');
  const code = fields.code ?? statusCode;
  const message = typeof fields.message === 'string' ? fields.message : `HTTP ${status}`;
  const details = Array.isArray(fields.details) ? (fields.details as ErrorDetail[]) : undefined;
  // `retryAfterMs` is kept by a RateLimitError only.
  const init: Init = { status, code, message, headers, details, retryAfterMs };
  // A code this SDK does not know still gets the class its status implies (a 5xx is an InternalError).
  const Class = BY_CODE[code] ?? BY_CODE[statusCode] ?? CampaignError;
  const days = Class === BadRequestError && cooldown ? COOLDOWN_DAYS.exec(message) : null;
  return days ? new BoostCooldownError({ ...init, daysRemaining: Number(days[1] ?? days[2]) }) : new Class(init);
}

/** A success response whose body does not match the spec (only checked with `validateResponses: true`). */
export class ResponseValidationError extends CampaignError {
  override readonly name = 'ResponseValidationError';
}

/**
 * 401 or 403 from the game server's relay: the game's own authentication of the player (its session token) was
 * refused, typically because it expired. Sign the player in again, then retry; nothing was sent to the service.
 * `code` is `UNAUTHORIZED` or `FORBIDDEN`.
 */
export class RelayAuthError extends CampaignError {
  override readonly name = 'RelayAuthError';
}
