/**
 * The error body every error response carries, its codes and statuses: plain data, no zod (the SDK's error
 * classes read them in game clients). `errors.ts` holds the zod schemas of the same shapes.
 * @see spec "Errors"
 */

export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'INTERNAL_ERROR',
  'RATE_LIMITED',
  'USER_CODE_LIMIT',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** One field-level problem: where (`sessions.0.creatorKey`) and what. */
export type ErrorDetail = {
  path: string;
  message: string;
};

/** The spec's error body. */
export type ErrorBody = {
  status: number;
  error: string;
  message: string;
  code: string;
  details?: ErrorDetail[] | undefined;
};

/** The spec's code for an HTTP status, where the spec names one (CONFLICT's 409 is a guess by name). */
export const CODE_BY_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  422: 'VALIDATION_ERROR',
  429: 'RATE_LIMITED',
};

/** HTTP status names for the `error` field. assumed: the standard reason phrases. */
export const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Builds an error body in the spec's shape; the emulator and the relay answer with it. */
export function errorBody(status: number, code: string, message: string, details?: ErrorDetail[]): ErrorBody {
  return { status, error: STATUS_NAMES[status] ?? 'Error', message, code, ...(details ? { details } : {}) };
}
