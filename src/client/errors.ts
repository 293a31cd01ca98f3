/**
 * The client's typed exceptions. A command that answers with errors throws a DataApiException (or its
 * subclass for the code), carrying the Data API errorCode, every error of the response and the response.
 * Wrong arguments to a client method throw a plain TypeError instead (a bug in the caller, not a condition).
 */
import type { CommandResponse } from '../commands/response.js';
import { VectorDbError, type WireError } from '../errors/index.js';
import type { MutationResult } from './results.js';

/**
 * A command answered with errors.
 * @example
 * try {
 *   await products.insertOne({ _id: 'lamp' });
 * } catch (error) {
 *   if (error instanceof DocumentAlreadyExistsException) await products.upsertOne({ _id: 'lamp' });
 *   else throw error;
 * }
 */
export class DataApiException extends Error {
  override readonly name: string = 'DataApiException';
  /** The Data API code of the first error, e.g. `DOCUMENT_ALREADY_EXISTS`. */
  readonly errorCode: string;
  /** Every error of the response. */
  readonly errors: readonly WireError[];
  /** The whole response (status may hold partial results, e.g. ids inserted before a failure). */
  readonly response: CommandResponse;
  /**
   * For insertMany / upsertMany and their chunked forms: what happened to every document, in input order
   * (CREATED, UPDATED, UNCHANGED, ALREADY_EXISTS or NOT_PROCESSED). Undefined for other calls.
   */
  readonly results: readonly MutationResult<unknown>[] | undefined;

  constructor(response: CommandResponse, options: { results?: readonly MutationResult<unknown>[] } = {}) {
    const errors = response.errors ?? [];
    const first = errors[0];
    super(first ? `${first.errorCode}: ${first.message}` : 'Data API command failed');
    this.errorCode = first?.errorCode ?? 'UNEXPECTED_SERVER_ERROR';
    this.errors = errors;
    this.response = response;
    this.results = options.results;
  }

  /** The same as `errorCode`, under the name a VectorDbError (and Node's errors) use for it. */
  get code(): string {
    return this.errorCode;
  }
}

/** The collection does not exist (`UNKNOWN_COLLECTION_OR_TABLE`). */
export class CollectionNotFoundException extends DataApiException {
  override readonly name = 'CollectionNotFoundException';
}

/** The keyspace does not exist (`UNKNOWN_KEYSPACE`; the Java client's DataApiNamespaceNotFoundException). */
export class KeyspaceNotFoundException extends DataApiException {
  override readonly name = 'KeyspaceNotFoundException';
}

/** The keyspace already exists (`KEYSPACE_ALREADY_EXISTS`). */
export class KeyspaceAlreadyExistException extends DataApiException {
  override readonly name = 'KeyspaceAlreadyExistException';
}

/** No such database (`DATABASE_NOT_FOUND`). */
export class DatabaseNotFoundException extends DataApiException {
  override readonly name = 'DatabaseNotFoundException';
}

/** A document with this `_id` exists (`DOCUMENT_ALREADY_EXISTS`): use upsert to replace it. */
export class DocumentAlreadyExistsException extends DataApiException {
  override readonly name = 'DocumentAlreadyExistsException';
}

/**
 * The command's arguments were refused: a bad field value or option, an invalid filter expression, a bad
 * name, or a collection that exists with other settings (the Java client's DataApiInvalidArgumentException).
 */
export class InvalidArgumentException extends DataApiException {
  override readonly name = 'InvalidArgumentException';
}

/** More documents match than countDocuments may count (`TOO_MANY_DOCUMENTS_TO_COUNT`). */
export class TooManyDocumentsToCountException extends DataApiException {
  override readonly name = 'TooManyDocumentsToCountException';
}

/** The token is missing, unknown, wrong or revoked, or lacks the role or database the call needs. */
export class UnauthorizedException extends DataApiException {
  override readonly name = 'UnauthorizedException';
}

/**
 * The database is open elsewhere: another process holds its directory (`DATABASE_LOCKED`; the message names
 * that process), or it cannot be deleted or changed while open (`DATABASE_IN_USE`).
 */
export class DatabaseInUseException extends DataApiException {
  override readonly name = 'DatabaseInUseException';
}

/** The VectorDB (or its database) was closed: create a new one (`DATABASE_NOT_OPEN`). */
export class DatabaseNotOpenException extends DataApiException {
  override readonly name = 'DatabaseNotOpenException';
}

/**
 * The database cannot be read as it is (`DATABASE_CORRUPTED`): a directory LevelDB cannot open (the message
 * names its files; the failed open changed nothing), or a record that failed its checksum (the message names
 * the collection or table, and the `_id` or primary key). `vectordb-local verify` reports all the damage and
 * `vectordb-local repair <dir>` saves what can be saved.
 */
export class DatabaseCorruptedException extends DataApiException {
  override readonly name = 'DatabaseCorruptedException';
}

const BY_CODE: Record<string, new (response: CommandResponse, options?: { results?: readonly MutationResult<unknown>[] }) => DataApiException> = {
  UNKNOWN_COLLECTION_OR_TABLE: CollectionNotFoundException,
  UNKNOWN_KEYSPACE: KeyspaceNotFoundException,
  KEYSPACE_ALREADY_EXISTS: KeyspaceAlreadyExistException,
  DATABASE_NOT_FOUND: DatabaseNotFoundException,
  DOCUMENT_ALREADY_EXISTS: DocumentAlreadyExistsException,
  TOO_MANY_DOCUMENTS_TO_COUNT: TooManyDocumentsToCountException,
  COMMAND_FIELD_VALUE_INVALID: InvalidArgumentException,
  COMMAND_FIELD_UNKNOWN: InvalidArgumentException,
  COMMAND_ACCEPTS_NO_OPTIONS: InvalidArgumentException,
  INVALID_ARGUMENT: InvalidArgumentException,
  FILTER_INVALID_EXPRESSION: InvalidArgumentException,
  UNSUPPORTED_SCHEMA_NAME: InvalidArgumentException,
  EXISTING_COLLECTION_DIFFERENT_SETTINGS: InvalidArgumentException,
  INVALID_CREATE_COLLECTION_FIELD: InvalidArgumentException,
  INVALID_CREATE_COLLECTION_OPTIONS: InvalidArgumentException,
  INVALID_INDEXING_DEFINITION: InvalidArgumentException,
  MISSING_AUTHENTICATION_TOKEN: UnauthorizedException,
  UNAUTHENTICATED_REQUEST: UnauthorizedException,
  UNAUTHORIZED_ACCESS: UnauthorizedException,
  DATABASE_IN_USE: DatabaseInUseException,
  DATABASE_LOCKED: DatabaseInUseException,
  DATABASE_NOT_OPEN: DatabaseNotOpenException,
  DATABASE_CORRUPTED: DatabaseCorruptedException,
};

/** The typed exception for a response with errors. */
export function exceptionFor(response: CommandResponse, options: { results?: readonly MutationResult<unknown>[] } = {}): DataApiException {
  const code = response.errors?.[0]?.errorCode ?? '';
  const ExceptionClass = BY_CODE[code] ?? DataApiException;
  return new ExceptionClass(response, options);
}

/**
 * Runs fn, turning a VectorDbError thrown below the client (opening storage, a closed database, a home's
 * registry) into the typed exception of its code, the original kept as `cause`. @internal
 */
export async function typedErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (!(error instanceof VectorDbError)) throw error;
    const exception = exceptionFor({ errors: [error.toWire()] });
    Object.defineProperty(exception, 'cause', { value: error, enumerable: false, configurable: true });
    throw exception;
  }
}

/** A client-side exception with one error of this code (no command ran). @internal */
export function clientException(errorCode: string, scope: WireError['scope'], title: string, message: string): DataApiException {
  return exceptionFor({ errors: [{ id: '', family: 'REQUEST', scope, errorCode, title, message }] });
}
