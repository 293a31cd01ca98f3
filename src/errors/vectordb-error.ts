/**
 * VectorDbError: the one error class every layer throws for failures a caller can cause (and for
 * storage failures). It carries a code from codes.ts, renders its message from the template, and
 * turns itself into the Data API's wire error object.
 */
import { randomUuid } from '../platform/random.js';
import { ERROR_CODES, type ErrorCode, type ErrorFamily, type ErrorScope } from './codes.js';

export type ErrorVars = Readonly<Record<string, string | number | boolean | null | undefined>>;

/** The error object of a Data API response's `errors` array. */
export interface WireError {
  id: string;
  family: ErrorFamily;
  scope: ErrorScope;
  errorCode: string;
  title: string;
  message: string;
  documentIds?: unknown[];
}

export interface VectorDbErrorOptions {
  cause?: unknown;
  /** Ids of the documents this error is about (insert/update/delete per-document errors). */
  documentIds?: unknown[];
}

export class VectorDbError extends Error {
  override readonly name: string = 'VectorDbError';
  readonly code: ErrorCode;
  readonly family: ErrorFamily;
  readonly scope: ErrorScope;
  readonly title: string;
  readonly httpStatus: number;
  readonly documentIds: unknown[] | undefined;

  constructor(code: ErrorCode, message: string, options: VectorDbErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    const spec = ERROR_CODES[code];
    this.code = code;
    this.family = spec.family;
    this.scope = spec.scope;
    this.title = spec.title;
    this.httpStatus = spec.httpStatus;
    this.documentIds = options.documentIds;
  }

  /** Builds an error from its code's template, e.g. `VectorDbError.of('TOO_MANY_COLLECTIONS', {...})`. */
  static of(code: ErrorCode, vars: ErrorVars = {}, options: VectorDbErrorOptions = {}): VectorDbError {
    return new VectorDbError(code, renderTemplate(ERROR_CODES[code].message, vars, code), options);
  }

  /**
   * A warning for a response's `status.warnings` (never thrown), built without capturing a stack: on a fast
   * read (a table's vector find warns of its empty filter) the stack costs more than the command.
   */
  static warning(code: ErrorCode, vars: ErrorVars = {}): VectorDbError {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      return VectorDbError.of(code, vars);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }

  /** The Data API's `errorCode` name (same as `code`). */
  get errorCode(): ErrorCode {
    return this.code;
  }

  toWire(): WireError {
    const wire: WireError = {
      id: randomUuid(),
      family: this.family,
      scope: this.scope,
      errorCode: this.code,
      title: this.title,
      message: this.message,
    };
    if (this.documentIds !== undefined && this.documentIds.length > 0) wire.documentIds = this.documentIds;
    return wire;
  }
}

export function isVectorDbError(value: unknown): value is VectorDbError {
  return value instanceof VectorDbError;
}

export function renderTemplate(template: string, vars: ErrorVars, code = 'template'): string {
  return template.replace(/\$\{(\w+)\}/g, (_, name: string) => {
    if (!(name in vars)) throw new Error(`error ${code}: missing template variable '${name}'`);
    const value = vars[name];
    return value === undefined ? '' : String(value);
  });
}

/** Renders any value for an error message the way the Data API does: JSON, shortened. */
export function describeValue(value: unknown, max = 100): string {
  let text: string;
  try {
    text = value === undefined ? 'undefined' : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** The JSON type name the Data API uses in messages ("String", "Number", "Object", ...). */
export function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'Array';
  switch (typeof value) {
    case 'string':
      return 'String';
    case 'number':
    case 'bigint':
      return 'Number';
    case 'boolean':
      return 'Boolean';
    case 'object':
      return 'Object';
    default:
      return typeof value;
  }
}
