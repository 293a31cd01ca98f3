/**
 * The one table of error codes: our errors.yaml, typed.
 * Each code has a family, a scope, a title, a message template with ${vars} and an HTTP status.
 * Codes are part of the protocol and never change; titles and messages may be improved.
 */

export type ErrorFamily = 'REQUEST' | 'SERVER';
export type ErrorScope =
  | ''
  | 'DOCUMENT'
  | 'FILTER'
  | 'SORT'
  | 'UPDATE'
  | 'SCHEMA'
  | 'PROJECTION'
  | 'DATABASE'
  | 'SECURITY'
  | 'VECTOR'
  | 'STORAGE'
  | 'WARNING';

export interface ErrorCodeSpec {
  readonly family: ErrorFamily;
  readonly scope: ErrorScope;
  readonly title: string;
  /** Rendered with `${name}` placeholders; every placeholder must be supplied. */
  readonly message: string;
  readonly httpStatus: number;
}

const request = (scope: ErrorScope, title: string, message: string, httpStatus = 200): ErrorCodeSpec => ({
  family: 'REQUEST',
  scope,
  title,
  message,
  httpStatus,
});
const server = (scope: ErrorScope, title: string, message: string, httpStatus = 200): ErrorCodeSpec => ({
  family: 'SERVER',
  scope,
  title,
  message,
  httpStatus,
});

export const ERROR_CODES = {
  // --- command shape -------------------------------------------------------------------------
  COMMAND_UNKNOWN: request('', 'Command not recognised', "Command '${command}' is not a ${level} Command recognized by Data API. Data API supports following ${level} Commands: [${known}]."),
  COMMAND_FIELD_UNKNOWN: request('', 'Command field not recognised', "Command field '${field}' not recognized: not one of known fields (${known})."),
  COMMAND_FIELD_VALUE_INVALID: request('', 'Command field value not valid', "Command field '${field}' value ${value} not valid: ${reason}."),
  COMMAND_ACCEPTS_NO_OPTIONS: request('', 'Command accepts no options', "Command '${command}' does not accept options but some were included."),
  REQUEST_NOT_JSON: request('', 'Request not valid JSON', 'Request not valid JSON, problem: ${problem}'),
  REQUEST_STRUCTURE_MISMATCH: request('', 'Request structure does not match', 'Request invalid: ${reason}'),
  UNSUPPORTED_CONTENT_TYPE: request('', 'Content type not supported', "Content-Type '${contentType}' not supported: use 'application/json'.", 415),
  REQUEST_TOO_LARGE: request('', 'Request body too large', 'Request body of ${size} bytes exceeds the maximum allowed (${max} bytes).', 413),
  RESOURCE_NOT_FOUND: request('', 'Resource not found', "No Data API resource at path '${path}': use POST /v1[/{keyspace}[/{collection}]] or /api/json/v1/....", 404),
  METHOD_NOT_ALLOWED: request('', 'Method not allowed', "Method '${method}' not allowed: the Data API accepts only POST.", 405),
  INVALID_ARGUMENT: request('', 'Invalid argument', '${reason}'),

  // --- security ------------------------------------------------------------------------------
  MISSING_AUTHENTICATION_TOKEN: request('SECURITY', 'Missing authentication token', "Role-based access control failed: missing authentication token; send it in the 'Token' header.", 401),
  UNAUTHENTICATED_REQUEST: request('SECURITY', 'Authentication failed', 'Authentication failed for request due to invalid token', 401),
  UNAUTHORIZED_ACCESS: request('SECURITY', 'Not authorised', 'The token does not grant access to ${resource}.', 401),

  // --- documents -----------------------------------------------------------------------------
  DOCUMENT_ALREADY_EXISTS: request('DOCUMENT', 'Document the given _id already exists', "Cannot insert the document: a document already exists with given '_id' (${id}).\nEither resend the command without the document, or use an update or replace command to change it."),
  DOCUMENT_REPLACE_DIFFERENT_DOCID: request('DOCUMENT', 'Replacement has a different _id', "The replace document and document resolved using filter have different '_id's: ${replacementId} (replace document) vs ${documentId} (document that filter matches)."),
  SHRED_BAD_DOCUMENT_TYPE: request('DOCUMENT', 'Bad document type', 'Bad document type to shred: document to shred must be a JSON Object, instead got ${type}.'),
  SHRED_BAD_DOCID_TYPE: request('DOCUMENT', 'Bad document _id type', 'Bad type for \'_id\' property: Document Id must be a JSON String, Number, Boolean, EJSON-Encoded Date, UUID or ObjectId Object or null instead got ${type}.'),
  SHRED_BAD_DOCID_VALUE: request('DOCUMENT', 'Bad document _id value', "Bad value for '_id' property: ${reason}."),
  SHRED_BAD_FIELD_NAME: request('DOCUMENT', 'Document field name not valid', "Document field name not valid: field name '${name}' ${reason}."),
  SHRED_BAD_EJSON_VALUE: request('DOCUMENT', 'Bad EJSON value', 'Bad EJSON value: ${reason}.'),
  SHRED_BAD_VECTOR_SIZE: request('DOCUMENT', 'Bad $vector size', 'Bad $vector value: ${reason}.'),
  SHRED_BAD_VECTOR_VALUE: request('DOCUMENT', 'Bad $vector value', 'Bad $vector value: needs to be an array of numbers (or a $binary Object), ${reason}.'),
  SHRED_BAD_DOCUMENT_VECTOR_TYPE: request('DOCUMENT', 'Bad $vector type', 'Bad $vector type: ${reason}.'),
  SHRED_BAD_BINARY_VECTOR_VALUE: request('DOCUMENT', 'Bad $binary vector value', 'Bad $binary vector value: ${reason}.'),
  SHRED_DOC_LIMIT_VIOLATION: request('DOCUMENT', 'Document exceeds a limit', 'Document size limitation violated: ${reason}.'),
  INVALID_VECTOR_LENGTH: request('DOCUMENT', 'Vector length does not match the collection', "Length of vector parameter (${actual}) different from declared '$vector' dimension (${expected}) of collection '${collection}'."),
  INVALID_USAGE_OF_VECTORIZE: request('DOCUMENT', 'Invalid use of $vectorize', '${reason}'),

  // --- filters -------------------------------------------------------------------------------
  FILTER_INVALID_EXPRESSION: request('FILTER', 'Invalid filter expression', 'Invalid filter expression: ${reason}.'),
  FILTER_UNSUPPORTED_OPERATOR: request('FILTER', 'Unsupported filter operator', "Unsupported filter operator '${operator}'${hint}."),
  FILTER_UNSUPPORTED_DATA_TYPE: request('FILTER', 'Unsupported filter data type', 'Unsupported filter data type: ${reason}.'),
  FILTER_MULTIPLE_ID_FILTER: request('FILTER', 'More than one _id filter', "Command included more than one '_id' equals filter clauses, which is not supported: use '$in' operator instead."),
  FILTER_FIELDS_LIMIT_VIOLATION: request('FILTER', 'Too many filter fields', 'Filter has ${count} fields, exceeds maximum allowed (${max}).'),
  FILTER_PATH_UNINDEXED: request('FILTER', 'Filter path not indexed', "Collection path '${path}' is not indexed: cannot filter on that path. The collection's indexing option excludes it."),
  FILTER_ID_NOT_INDEXED: request('FILTER', '_id not indexed', "The collection does not index '_id': only '$eq' and '$in' can be used on it, not '${operator}'."),

  // --- sort ----------------------------------------------------------------------------------
  SORT_CLAUSE_INVALID: request('SORT', 'Invalid sort clause', 'Invalid sort clause: ${reason}.'),
  SORT_CLAUSE_PATH_INVALID: request('SORT', 'Invalid sort path', "Invalid sort clause path '${path}': ${reason}."),
  SORT_CLAUSE_VALUE_INVALID: request('SORT', 'Invalid sort value', "Invalid sort clause value for path '${path}': sort ordering value can only be `1` for ascending or `-1` for descending."),
  SORT_CLAUSE_PATH_UNINDEXED: request('SORT', 'Sort path not indexed', "Collection path '${path}' is not indexed: cannot sort on that path."),
  OVERLOADED_SORT_ROW_LIMIT: request('SORT', 'Too many documents to sort', 'The command used in-memory sorting which has a limit of ${max} documents: add filters to match fewer documents.'),

  // --- updates -------------------------------------------------------------------------------
  UNSUPPORTED_UPDATE_OPERATION: request('UPDATE', 'Unsupported update operation', '${reason}'),
  UNSUPPORTED_UPDATE_OPERATION_PARAM: request('UPDATE', 'Unsupported update operation parameter', '${reason}'),
  UNSUPPORTED_UPDATE_OPERATION_PATH: request('UPDATE', 'Unsupported update operation path', '${reason}'),
  UNSUPPORTED_UPDATE_OPERATION_TARGET: request('UPDATE', 'Unsupported update operation target', '${reason}'),
  UNSUPPORTED_UPDATE_OPERATION_MODIFIER: request('UPDATE', 'Unsupported update operation modifier', '${reason}'),
  UNSUPPORTED_UPDATE_DATA_TYPE: request('UPDATE', 'Unsupported update data type', '${reason}'),
  UNSUPPORTED_UPDATE_OPERATOR_FOR_DOC_ID: request('UPDATE', '_id cannot be updated', "Update operator '${operator}' cannot be used on '_id': the _id field cannot be updated using update operators."),
  UNSUPPORTED_UPDATE_OPERATOR_FOR_VECTOR: request('UPDATE', '$vector update not supported', "Update operator '${operator}' cannot be used on '$vector': only '$set', '$setOnInsert' and '$unset' can."),
  UNSUPPORTED_UPDATE_OPERATOR_FOR_VECTORIZE: request('UPDATE', '$vectorize update not supported', "Update operator '${operator}' cannot be used on '$vectorize': only '$set', '$setOnInsert' and '$unset' can."),
  UNSUPPORTED_UPDATE_OPERATOR_FOR_LEXICAL: request('UPDATE', '$lexical update not supported', "Update operator '${operator}' cannot be used on '$lexical': only '$set', '$setOnInsert' and '$unset' can."),

  // --- projection ----------------------------------------------------------------------------
  UNSUPPORTED_PROJECTION_PARAM: request('PROJECTION', 'Unsupported projection parameter', 'Unsupported projection parameter: ${reason}.'),
  UNSUPPORTED_PROJECTION_DEFINITION: request('PROJECTION', 'Unsupported projection definition', 'Unsupported projection definition: ${reason}.'),

  // --- schema --------------------------------------------------------------------------------
  UNKNOWN_KEYSPACE: request('SCHEMA', 'Unknown keyspace', 'The command tried to use a Keyspace that does not exist in the Database. The keyspace used by the command: ${keyspace}. The Database has the existing keyspaces: [${known}].'),
  UNKNOWN_COLLECTION_OR_TABLE: request('SCHEMA', 'Unknown collection', 'The command tried to get a Collection or Table ${collection} that does not exist in the Keyspace ${keyspace}. The keyspace has the existing collections or tables: [${known}].'),
  EXISTING_COLLECTION_DIFFERENT_SETTINGS: request('SCHEMA', 'Collection exists with different settings', "Collection '${collection}' already exists but with settings different from ones passed with 'createCollection' command."),
  TOO_MANY_COLLECTIONS: request('SCHEMA', 'Too many collections', "Cannot create collection '${collection}': the maximum number of collections per database is ${max}, database already has ${count}."),
  UNSUPPORTED_SCHEMA_NAME: request('SCHEMA', 'Unsupported schema name', "${kind} name '${name}' not supported: names must be 1 to ${max} characters of letters, digits and underscores, starting with a letter or underscore."),
  INVALID_CREATE_COLLECTION_FIELD: request('SCHEMA', 'Unknown createCollection option', "Unknown 'createCollection' option field '${field}': known fields are ${known}."),
  INVALID_CREATE_COLLECTION_OPTIONS: request('SCHEMA', 'Invalid createCollection options', 'Invalid createCollection options: ${reason}.'),
  INVALID_INDEXING_DEFINITION: request('SCHEMA', 'Invalid indexing definition', 'Invalid indexing definition: ${reason}.'),
  VECTOR_SEARCH_NOT_SUPPORTED: request('SCHEMA', 'Vector search not enabled', 'Vector search is not enabled for collection: ${keyspace}.${collection}. Create it with options.vector to store or search vectors.'),
  VECTOR_SEARCH_TOO_BIG_VALUE: request('SCHEMA', 'Vector dimension too big', "Vector embedding property '$vector' length too big: ${dimension} (max ${max})."),
  VECTORIZE_FEATURE_NOT_AVAILABLE: request('SCHEMA', 'Vectorize not available', 'Vectorize feature is not available in the environment: vectordb-local has no embedding providers; send $vector values instead.'),
  KEYSPACE_ALREADY_EXISTS: request('SCHEMA', 'Keyspace already exists', "Keyspace '${keyspace}' already exists."),

  // --- database / server ---------------------------------------------------------------------
  INVALID_DATABASE_QUERY: request('DATABASE', 'Invalid database query', '${reason}'),
  DATABASE_NOT_OPEN: request('DATABASE', 'Database not open', "Database '${location}' is ${state}: open it (or create a new VectorDB) before use."),
  DATABASE_LOCKED: server('STORAGE', 'Database in use', "Database directory '${location}' is in use${holder} (its LevelDB lock is held). Stop that process, or, if it is `vectordb-local serve`, connect to it over HTTP (new VectorDB(token, 'http://127.0.0.1:8181')) instead of opening the directory; or use another directory."),
  DATABASE_NOT_FOUND: request('DATABASE', 'Database not found', "No database '${database}' found${where}."),
  DATABASE_IN_USE: request('DATABASE', 'Database open elsewhere', "Database '${database}' is open ${where}: close it there, then try again.", 409),

  // --- administration (a home of databases, see src/admin/) ------------------------------------
  HOME_NOT_FOUND: request('DATABASE', 'Home not found', "No vectordb-local home at '${home}': create one with VectorDBAdmin.initHome(home).", 404),
  HOME_ALREADY_EXISTS: request('DATABASE', 'Home already exists', "'${home}' already is a vectordb-local home: it was initialised before, and its first token was shown then. Use a token of it, or choose another directory.", 409),
  HOME_LOCKED: server('DATABASE', 'Home busy', "The registry of home '${home}' stayed locked for ${seconds} s (lock file ${lockFile}, held by ${holder}). If no vectordb-local process is running, delete the lock file."),
  TOKEN_NOT_FOUND: request('SECURITY', 'Token not found', 'No token of this home matches the given token or client id.', 404),

  STORAGE_CORRUPTION: server('STORAGE', 'Storage corrupted', "The database at '${location}' is corrupted: ${reason}"),
  STORAGE_IO_ERROR: server('STORAGE', 'Storage I/O error', "I/O error on the database at '${location}': ${reason}"),
  VECTOR_INDEX_CAPACITY: server('VECTOR', 'Vector index is full', "The ${backend} vector index of collection '${collection}' cannot grow past ${max} vectors of ${dimension} dimensions: ${reason}"),
  VECTOR_INDEX_INCOMPATIBLE: server('VECTOR', 'Stored vector index not loadable', "The stored vector index of collection '${collection}' cannot be loaded by the ${backend} backend: ${reason}. Rebuild it from the stored vectors."),
  FAILED_CONCURRENT_OPERATIONS: server('DATABASE', 'Concurrent operations failed', 'Failed to complete the operation because of concurrent writes: ${reason}.'),
  UNEXPECTED_SERVER_ERROR: server('', 'Unexpected server error', 'Server failed: ${reason}'),

  // --- warnings ------------------------------------------------------------------------------
  DEPRECATED_COMMAND: request('WARNING', 'Deprecated command', 'The deprecated command is: ${command}. The new command to use is: ${replacement}.'),
} as const satisfies Record<string, ErrorCodeSpec>;

export type ErrorCode = keyof typeof ERROR_CODES;
