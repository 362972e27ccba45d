/** The error body every error response carries, as zod schemas (the plain codes and shapes: `error-codes.ts`). @see spec "Errors" */
import * as z from 'zod/mini';
import type { ErrorBody as ErrorBodyShape, ErrorDetail as ErrorDetailShape } from './error-codes.js';

export { CODE_BY_STATUS, ERROR_CODES, errorBody, STATUS_NAMES, type ErrorCode } from './error-codes.js';

export const ErrorDetail = z.object({ path: z.string(), message: z.string() });
export type ErrorDetail = ErrorDetailShape;

export const ErrorBody = z.object({
  status: z.int(),
  error: z.string(),
  message: z.string(),
  code: z.string(),
  details: z.optional(z.array(ErrorDetail)),
});
export type ErrorBody = ErrorBodyShape;

