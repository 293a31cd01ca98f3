/**
 * The Data API response envelope `{status?, data?, errors?}` and the one place that builds it.
 * `data.nextPageState` is always present on multi-document responses; `data.document` on single-document
 * ones; `data` is dropped whenever there are errors (status may stay, for partial writes).
 */
import { ERROR_CODES, VectorDbError, type ErrorCode, type ErrorVars, type WireError } from '../errors/index.js';
import type { JsonObject, JsonValue } from '../query/json.js';

export type ResponseData =
  | { documents: JsonObject[]; nextPageState: string | null }
  | { document: JsonObject | null };

export interface CommandResponse {
  status?: JsonObject;
  data?: ResponseData;
  errors?: WireError[];
}

/** What a command handler returns before the envelope is shaped. */
export interface CommandResult {
  readonly status?: JsonObject;
  readonly data?: ResponseData;
  readonly errors?: readonly VectorDbError[];
  readonly warnings?: readonly VectorDbError[];
}

export function shapeResponse(result: CommandResult): CommandResponse {
  // Most reads: data only, nothing to merge into a status.
  if (result.status === undefined && !result.warnings?.length && !result.errors?.length) return result.data === undefined ? {} : { data: result.data };
  const response: CommandResponse = {};
  const status: JsonObject = { ...(result.status ?? {}) };
  if (result.warnings && result.warnings.length > 0) status.warnings = result.warnings.map((w) => w.toWire() as unknown as JsonValue);
  if (Object.keys(status).length > 0) response.status = status;
  const errors = result.errors ?? [];
  if (errors.length > 0) response.errors = errors.map((e) => e.toWire());
  else if (result.data !== undefined) response.data = result.data;
  return response;
}

/** The envelope of a command that failed as a whole. */
export function errorResponse(error: VectorDbError): CommandResponse {
  return { errors: [error.toWire()] };
}

/** The envelope of a request refused before any command ran (token, path, content type, size), from its code. */
export function errorEnvelope(code: ErrorCode, vars: ErrorVars = {}): CommandResponse {
  return errorResponse(VectorDbError.of(code, vars));
}

/** The HTTP status an envelope goes out with: the first non-200 status among its errors' codes. */
export function httpStatusOfResponse(response: CommandResponse): number {
  for (const error of response.errors ?? []) {
    if (!Object.prototype.hasOwnProperty.call(ERROR_CODES, error.errorCode)) continue;
    const status = ERROR_CODES[error.errorCode as ErrorCode].httpStatus;
    if (status !== 200) return status;
  }
  return 200;
}
