/**
 * The client's typed exceptions. A command that answers with errors throws a DataApiException (or its
 * subclass for the code), carrying the Data API errorCode, every error of the response and the response.
 */
import type { CommandResponse } from '../commands/index.js';
import type { WireError } from '../errors/index.js';

export class DataApiException extends Error {
  override readonly name: string = 'DataApiException';
  /** The Data API code of the first error, e.g. `DOCUMENT_ALREADY_EXISTS`. */
  readonly errorCode: string;
  /** Every error of the response. */
  readonly errors: readonly WireError[];
  /** The whole response (status may hold partial results, e.g. ids inserted before a failure). */
  readonly response: CommandResponse;

  constructor(response: CommandResponse) {
    const errors = response.errors ?? [];
    const first = errors[0];
    super(first ? `${first.errorCode}: ${first.message}` : 'Data API command failed');
    this.errorCode = first?.errorCode ?? 'UNEXPECTED_SERVER_ERROR';
    this.errors = errors;
    this.response = response;
  }
}

export class CollectionNotFoundException extends DataApiException {
  override readonly name = 'CollectionNotFoundException';
}

export class KeyspaceNotFoundException extends DataApiException {
  override readonly name = 'KeyspaceNotFoundException';
}

export class KeyspaceAlreadyExistException extends DataApiException {
  override readonly name = 'KeyspaceAlreadyExistException';
}

export class DocumentAlreadyExistsException extends DataApiException {
  override readonly name = 'DocumentAlreadyExistsException';
}

const BY_CODE: Record<string, new (response: CommandResponse) => DataApiException> = {
  UNKNOWN_COLLECTION_OR_TABLE: CollectionNotFoundException,
  UNKNOWN_KEYSPACE: KeyspaceNotFoundException,
  DOCUMENT_ALREADY_EXISTS: DocumentAlreadyExistsException,
};

/** The typed exception for a response with errors. */
export function exceptionFor(response: CommandResponse): DataApiException {
  const code = response.errors?.[0]?.errorCode ?? '';
  const ExceptionClass = BY_CODE[code] ?? DataApiException;
  return new ExceptionClass(response);
}
