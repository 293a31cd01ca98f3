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
  | 'EMBEDDING_PROVIDER'
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
  VECTORIZE_FEATURE_NOT_AVAILABLE: request('SCHEMA', 'Vectorize not available', 'Vectorize feature is not available in the environment: no embedding provider is registered with this database. Register one with new VectorDB(token, dir, keyspace, { embedders: { name: url or (texts) => vectors } }) or serve --embedder name=URL, or send $vector values instead.'),
  EMBEDDING_SERVICE_NOT_CONFIGURED: request('SCHEMA', 'Embedding service not configured for collection', "Collection '${table}' does not have embedding service configured: cannot vectorize data. Collection must be recreated with embedding service configuration (options.vector.service) to allow vectorization."),
  INVALID_VECTORIZE_VALUE_TYPE: request('DOCUMENT', 'Invalid $vectorize value type', 'Invalid $vectorize value: ${errorMessage}.'),
  LEXICAL_NOT_ENABLED_FOR_COLLECTION: request('SCHEMA', 'Lexical search is not enabled for the collection', 'Lexical content can only be added and filtering and sort only be used on collections for which Lexical feature is enabled. The collection ${keyspace}.${collection} does not have Lexical feature enabled.'),
  LEXICAL_CONTENT_TOO_LONG: request('DOCUMENT', 'Lexical content exceeds maximum length', 'The command attempted to insert or update the `$lexical` field with content that exceeds the maximum allowed length (${max} characters, got ${length}). The collection: ${keyspace}.${collection}. Resend the command using a smaller value for the `$lexical` field.'),
  SHRED_BAD_DOCUMENT_LEXICAL_TYPE: request('DOCUMENT', 'Bad $lexical value to shred', 'Bad $lexical value to shred: ${errorMessage}.'),
  HYBRID_FIELD_CONFLICT: request('DOCUMENT', 'Conflict with $hybrid field', "Field '$hybrid' cannot be used with '$lexical', '$vector', or '$vectorize'. Resend command without conflicting fields."),
  HYBRID_FIELD_UNSUPPORTED_VALUE_TYPE: request('DOCUMENT', 'Unsupported JSON value type for $hybrid field', "Unsupported JSON value type for '$hybrid' field: ${errorMessage}."),
  HYBRID_FIELD_UNKNOWN_SUBFIELDS: request('DOCUMENT', 'Unknown sub-field(s) for $hybrid field', "Unrecognized sub-field(s) for '$hybrid' Object: ${errorMessage}; only '$lexical' and '$vectorize' are allowed."),
  UNSUPPORTED_RERANKING_COMMAND: request('SCHEMA', 'Reranking not enabled and no override provided', 'The `findAndRerank` is not enabled for the collection, and a reranking service override was not provided with the command. The Command is only supported for collections that have `vector`, `lexical`, and `rerank` configured, or when a reranking service override is provided via the `rerank` command option.'),
  INVALID_RERANK_OVERRIDE: request('SCHEMA', 'Invalid reranking service override', "The reranking service override in the `findAndRerank` command is invalid. ${message}"),
  MISSING_RERANK_QUERY_TEXT: request('SORT', 'Rerank query text is missing', 'The findAndRerank command is missing the text to use as the query with the reranking model: give it as `$hybrid` text in the sort clause, e.g. `{"$hybrid": "query text"}`, or as the `rerankQuery` option.'),
  UNSUPPORTED_VECTORIZE_SORT_FOR_COLLECTION: request('SORT', 'Vectorize sorting not supported by the collection', "The command attempted to use vectorize sort (keyword '$vectorize' or '$hybrid') against a collection that does not have vectorize enabled. The collection ${keyspace}.${collection} does not have vectorize enabled."),
  RERANKING_PROVIDER_FAILED: server('', 'Reranking provider failed', "The reranking provider '${provider}' failed: ${reason}."),
  // The Data API's EMBEDDING_PROVIDER scope (errors.yaml); `${provider}`/`${modelProvider}` name the registered provider.
  EMBEDDING_PROVIDER_UNAVAILABLE: server('EMBEDDING_PROVIDER', 'The Embedding Provider is unavailable', "The Embedding Provider is unavailable. Underlying problem: ${errorMessage}"),
  EMBEDDING_PROVIDER_TIMEOUT: server('EMBEDDING_PROVIDER', 'The Embedding Provider request timed out', 'The command called an embedding provider to vectorize text, but the provider did not respond within the allowed time. The embedding provider was: ${modelProvider}. The HTTP status code was: ${httpStatus}. The error message was: ${errorMessage}. Retry the command, or register the provider with a longer timeoutMs.'),
  EMBEDDING_PROVIDER_CLIENT_ERROR: server('EMBEDDING_PROVIDER', 'The Embedding Provider returned a HTTP client error', "Provider '${provider}' returned a HTTP client error with HTTP ${httpStatus}; error message: ${errorMessage}"),
  EMBEDDING_PROVIDER_RATE_LIMITED: server('EMBEDDING_PROVIDER', 'Embedding provider rate limited the request', "Provider '${provider}' rate limited the request with HTTP ${httpStatus}; error message: ${errorMessage}"),
  EMBEDDING_PROVIDER_SERVER_ERROR: server('EMBEDDING_PROVIDER', 'The Embedding Provider returned a HTTP server error', "Provider '${provider}' returned a HTTP server error with HTTP ${httpStatus}; error message: ${errorMessage}"),
  EMBEDDING_PROVIDER_UNEXPECTED_RESPONSE: server('EMBEDDING_PROVIDER', 'The Embedding Provider returned an unexpected response', 'The Embedding Provider returned an unexpected response. Underlying problem: ${errorMessage}.'),
  KEYSPACE_ALREADY_EXISTS: request('SCHEMA', 'Keyspace already exists', "Keyspace '${keyspace}' already exists."),

  // --- tables (the Data API's codes; one entry per code, whatever scope the Data API files it under) ---------
  UNSUPPORTED_TABLE_COMMAND: request('', 'Command not supported on tables', "Command '${command}' is not supported on tables: table '${table}' supports ${known}."),
  UNSUPPORTED_COLLECTION_COMMAND: request('', 'Command not supported on collections', "Command '${command}' is only supported on tables, and '${collection}' is a collection."),
  UNKNOWN_TABLE_COLUMNS: request('DOCUMENT', 'Unknown table columns', "The command used columns that are not defined by table ${keyspace}.${table}: ${unknownColumns}. The table defines the columns: ${allColumns}."),
  INVALID_COLUMN_VALUES: request('DOCUMENT', 'Column values not valid for their data type', 'Only values that are supported by the column data type can be used with table ${keyspace}.${table}: ${problems}.'),
  MISSING_PRIMARY_KEY_COLUMNS: request('DOCUMENT', 'Primary key columns missing', 'All primary key columns must be provided when inserting rows into table ${keyspace}.${table}. The table has the primary key columns: ${primaryKeys}. The row is missing: ${missingColumns}.'),
  INVALID_FILTER_COLUMN_VALUES: request('FILTER', 'Filter values not valid for their column', 'Only values supported by the column data type can be used in a filter on table ${keyspace}.${table}: ${problems}.'),
  INVALID_MAP_SET_LIST_FILTER: request('FILTER', 'Invalid filter on a map, set or list column', 'Invalid filter on the ${type} column ${column}: ${reason}.'),
  UNSUPPORTED_FILTERING_FOR_COLUMN_TYPES: request('FILTER', 'Filtering not supported for column types', "Table ${keyspace}.${table} cannot filter on the column '${column}' of type ${type}${reason}."),
  MISSING_FILTER_FOR_UPDATE_DELETE: request('FILTER', 'Filter required for update and delete', 'A filter on the primary key of table ${keyspace}.${table} (${primaryKeys}) is required for ${command}.'),
  UNSUPPORTED_NON_PRIMARY_KEY_FILTER_FOR_UPDATE_DELETE: request('FILTER', 'Only primary key filters for update and delete', '${command} on table ${keyspace}.${table} can filter only on primary key columns (${primaryKeys}); the filter used: ${columns}.'),
  MISSING_FULL_PRIMARY_KEY_FOR_UPDATE_DELETE: request('FILTER', 'Full primary key required', '${command} on table ${keyspace}.${table} must filter with $eq on every primary key column (${primaryKeys}); missing: ${missingColumns}.'),
  INVALID_PRIMARY_KEY_FILTER: request('FILTER', 'Invalid primary key filter', 'Invalid filter on the primary key of table ${keyspace}.${table}: ${reason}.'),
  UNSUPPORTED_UPDATE_FOR_PRIMARY_KEY_COLUMNS: request('UPDATE', 'Primary key columns cannot be updated', 'Primary key columns of table ${keyspace}.${table} cannot be updated; the update used: ${columns}.'),
  MISSING_UPDATE_OPERATIONS: request('UPDATE', 'Update has no operations', 'The update of a row of table ${keyspace}.${table} must use $set, $unset, $push or $pullAll on at least one column.'),
  UNSUPPORTED_UPDATE_OPERATOR: request('UPDATE', 'Update operator is not supported by target columns', 'Only update operators that are supported by the column type can be used; $push and $pullAll are only supported against map, set, list columns. The command used the update operator ${operator} on the columns: ${unsupportedColumns} (table ${keyspace}.${table}).'),
  INVALID_PUSH_OPERATOR_USAGE: request('UPDATE', 'The command has invalid usage of $push operator', 'The command has invalid usage of $push operator, ${reason}. $push adds one element ({"$push": {"listColumn": "value"}}, {"$push": {"mapColumn": ["key1", "value1"]}} or {"mapColumn": {"key1": "value1"}}); combine it with $each to add several ({"$push": {"listColumn": {"$each": ["value1", "value2"]}}}).'),
  UNSUPPORTED_OVERLAPPING_UPDATE_OPERATIONS: request('UPDATE', 'Columns cannot be changed by multiple update operations', 'The command included multiple update operations that attempted to change the same column (for example both $set and $unset): ${duplicateAssignmentColumns}. Resend the command using a single update operation for each column.'),
  UNSUPPORTED_UPDATE_OPERATIONS_FOR_TABLE: request('UPDATE', 'Update operator not supported on tables', 'Tables support the update operations $set, $unset, $push and $pullAll; the update used the unsupported operations: ${operators}.'),
  INVALID_UPDATE_COLUMN_VALUES: request('UPDATE', 'Update values not valid for their column', 'Only values supported by the column data type can be used in an update of table ${keyspace}.${table}: ${problems}.'),
  EXISTING_TABLE_NOT_DATA_API_COLLECTION: request('SCHEMA', 'A table of that name exists', "Attempt to create new collection failed: table '${table}' already exists and it is not a valid Data API collection."),
  CANNOT_ADD_EXISTING_TABLE: request('SCHEMA', 'Table already exists', "Table '${table}' already exists in keyspace ${keyspace}: use the option ifNotExists to ignore this."),
  CANNOT_ADD_EXISTING_COLUMNS: request('SCHEMA', 'Columns already exist', 'The command attempted to add columns already defined by table ${keyspace}.${table}: ${existingColumns}.'),
  CANNOT_ADD_PREVIOUSLY_DROPPED_COLUMN: request('SCHEMA', 'Column cannot be re-added with a different type', 'The command attempted to add the column ${columnName} of type ${columnType}, dropped earlier from table ${keyspace}.${table} with the type ${previousType}: add it back with that type, or use another name.'),
  CANNOT_DROP_PRIMARY_KEY_COLUMNS: request('SCHEMA', 'Primary key columns cannot be dropped', 'The command attempted to drop primary key columns of table ${keyspace}.${table}: ${columns}.'),
  CANNOT_DROP_UNKNOWN_COLUMNS: request('SCHEMA', 'Unknown columns cannot be dropped', 'The command attempted to drop columns not defined by table ${keyspace}.${table}: ${columns}.'),
  CANNOT_DROP_INDEXED_COLUMNS: request('SCHEMA', 'Indexed columns cannot be dropped', 'The command attempted to drop indexed columns of table ${keyspace}.${table}: ${columns}; drop their indexes (${indexes}) first.'),
  CANNOT_DROP_UNKNOWN_TABLE: request('SCHEMA', 'Unknown table', 'The command attempted to drop the unknown table: ${unknownTable}.'),
  CANNOT_DROP_UNKNOWN_INDEX: request('SCHEMA', 'Unknown index', 'The command attempted to drop the unknown index: ${unknownIndex}.'),
  CANNOT_ADD_EXISTING_INDEX: request('SCHEMA', 'Index already exists', "Index '${index}' already exists in keyspace ${keyspace}: use the option ifNotExists to ignore this."),
  CANNOT_ADD_EXISTING_TYPE: request('SCHEMA', 'Type already exists', "Type '${type}' already exists in keyspace ${keyspace}: use the option ifNotExists to ignore this."),
  CANNOT_ADD_EXISTING_FIELD: request('SCHEMA', 'Type field already exists', "The command attempted to add fields already defined by type '${type}': ${fields}."),
  CANNOT_RENAME_UNKNOWN_TYPE_FIELD: request('SCHEMA', 'Unknown type field', "The command attempted to rename fields not defined by type '${type}': ${fields}."),
  CANNOT_DROP_TYPE_USED_BY_TABLE: request('SCHEMA', 'Type in use', "Type '${type}' is used by the tables ${tables} and cannot be dropped."),
  CANNOT_DROP_UNKNOWN_TYPE: request('SCHEMA', 'Unknown type', 'The command attempted to drop the unknown type: ${unknownType}.'),
  MISSING_PARTITION_COLUMNS: request('SCHEMA', 'Partition columns missing', 'The primary key of a table must name at least one partition column (partitionBy).'),
  UNKNOWN_PARTITION_COLUMNS: request('SCHEMA', 'Unknown partition columns', 'The primary key names partition columns that are not defined: ${unknownColumns}. The columns are: ${allColumns}.'),
  UNKNOWN_PARTITION_SORT_COLUMNS: request('SCHEMA', 'Unknown partition sort columns', 'The primary key names partition sort columns that are not defined (or are partition columns): ${unknownColumns}. The columns are: ${allColumns}.'),
  MISSING_ALTER_TABLE_OPERATIONS: request('SCHEMA', 'No alter table operation', 'alterTable needs exactly one operation of: add, drop, addVectorize, dropVectorize; got ${operations}.'),
  MISSING_ALTER_TYPE_OPERATIONS: request('SCHEMA', 'No alter type operation', 'alterType needs at least one of: add, rename.'),
  UNSUPPORTED_VECTORIZE_WHEN_MISSING_VECTORIZE_DEFINITION: request(
    'DOCUMENT',
    'Vectorize not supported on column with missing vectorize configuration',
    'Vectorize can only be used with columns that have a vectorize configuration. Vectorize configuration can be added when the table is created or later using the `alterTable` command. The table ${keyspace}.${table} defines the vector columns with vectorize definition: ${validVectorizeColumns}. The command included the following vector columns without vectorize definition: ${invalidVectorizeColumns}. Resend the command using only vector columns with a vectorize definition.',
  ),
  CANNOT_VECTORIZE_SORT_WHEN_MISSING_VECTORIZE_DEFINITION: request(
    'SORT',
    'Vectorize sort not supported on column with missing vectorize configuration',
    'Vectorize sort can only be used with columns that have a vectorize configuration. Vectorize configuration can be added when the table is created or later using the `alterTable` command. The table ${keyspace}.${table} defines the vector columns with vectorize definition: ${validVectorizeColumns}. The command included the following vector columns without vectorize definition: ${invalidVectorizeColumns}. Resend the command using only `vector` columns with a vectorize definition.',
  ),
  INVALID_VECTORIZE_FIELD_CONFIGURATION: request('SCHEMA', 'Unable to parse vectorize configuration for table, field schema invalid.', "Unable to parse vectorize configuration, schema invalid for field '${field}'. Underlying problem: ${message}"),
  CANNOT_VECTORIZE_UNKNOWN_COLUMNS: request('SCHEMA', 'Columns cannot be vectorized if they are not defined in the table schema', 'The command attempted to vectorize columns that are not in the table schema. The table ${keyspace}.${table} defines the columns: ${allColumns}. The command attempted to vectorize the unknown columns: ${unknownColumns}.'),
  CANNOT_VECTORIZE_NON_VECTOR_COLUMNS: request('SCHEMA', 'Columns cannot be vectorized if they are not `vector` type', 'Columns can only be vectorized if they use the `vector` column type. The table ${keyspace}.${table} has the vector columns: ${vectorColumns}. The command attempted to vectorize the non-vector columns: ${nonVectorColumns}.'),
  CANNOT_DROP_VECTORIZE_FROM_UNKNOWN_COLUMNS: request('SCHEMA', 'Vectorize configuration cannot be dropped from columns if they are not defined in the table schema', 'The command attempted to drop vectorize configuration from columns that are not in the table schema. The table ${keyspace}.${table} defines the columns: ${allColumns}. The command attempted to drop vectorize configuration from the unknown columns: ${unknownColumns}.'),
  CANNOT_DROP_VECTORIZE_FROM_NON_VECTOR_COLUMNS: request('SCHEMA', 'Vectorize configuration cannot be dropped from columns if they are not `vector` type', 'Columns can only have the vectorize configuration dropped if they use the `vector` column type. The table ${keyspace}.${table} has the vector columns: ${vectorColumns}. The command attempted to drop vectorize config from the non-vector columns: ${nonVectorColumns}.'),
  MISSING_DIMENSION_IN_VECTOR_COLUMN: request('SCHEMA', 'Vector dimension missing', "The vector column '${column}' must define its dimension."),
  MISSING_FIELDS_FOR_TYPE_CREATION: request('SCHEMA', 'Type fields missing', "Type '${type}' must define at least one field."),
  UNKNOWN_DATA_TYPE: request('SCHEMA', 'Unknown data type', "Column '${column}' uses the unknown data type ${type}. The known data types are: ${known}."),
  UNKNOWN_USER_DEFINED_TYPE: request('SCHEMA', 'Unknown user-defined type', "Column '${column}' uses the user-defined type '${type}', which is not defined in keyspace ${keyspace}."),
  UNSUPPORTED_MAP_DEFINITION: request('SCHEMA', 'Unsupported map definition', "Map column '${column}': ${reason}."),
  UNSUPPORTED_LIST_DEFINITION: request('SCHEMA', 'Unsupported list definition', "List column '${column}': ${reason}."),
  UNSUPPORTED_SET_DEFINITION: request('SCHEMA', 'Unsupported set definition', "Set column '${column}': ${reason}."),
  UNSUPPORTED_VECTOR_DIMENSION: request('SCHEMA', 'Unsupported vector dimension', "The vector column '${column}' has the dimension ${dimension}: it must be an integer from 1 to ${max}."),
  UNSUPPORTED_PRIMARY_KEY_TYPE: request('SCHEMA', 'Unsupported primary key type', "Column '${column}' of type ${type} cannot be part of a primary key."),
  UNSUPPORTED_TYPE_FIELDS: request('SCHEMA', 'Unsupported type fields', "Type '${type}': field '${field}' ${reason}."),
  UNKNOWN_INDEX_COLUMN: request('SCHEMA', 'Index column not defined', 'The command attempted to index the column ${column}, not defined by table ${keyspace}.${table} (columns: ${allColumns}).'),
  UNSUPPORTED_TEXT_ANALYSIS_FOR_DATA_TYPES: request('SCHEMA', 'Analysed text index not supported by data types', "Text analysis options ascii, caseSensitive and normalize can be used on text or ascii columns, on the text values of a list or set, and on a map's text keys or values (indexed on its keys or values); the column '${column}' of type ${type} cannot take them."),
  INVALID_INDEX_DEFINITION: request('SCHEMA', 'Provided index configuration is not valid', 'Provided index configuration is not valid: ${reason}.'),
  UNSUPPORTED_TEXT_INDEX_FOR_DATA_TYPES: request('SCHEMA', 'Text index not supported by data types', "Text indexes can only be created on columns of type text or ascii; table ${keyspace}.${table}'s column '${column}' is ${type}."),
  CANNOT_LEXICAL_FILTER_NON_INDEXED_COLUMNS: request('FILTER', 'Lexical filter cannot be used for non-indexed columns', 'Lexical filtering ($match) is only supported on columns that have been text-indexed. The table ${keyspace}.${table} has text indexes on columns: ${indexedColumns}. The command attempted to filter column(s): ${filterColumns}.'),
  CANNOT_LEXICAL_SORT_NON_INDEXED_COLUMNS: request('SORT', 'Lexical sort cannot be used for non-indexed columns', 'Lexical sorting is only supported on columns that have been text-indexed; a lexical sort names the column and the text to rank rows by (most similar first). The table ${keyspace}.${table} has text indexes on columns: ${indexedColumns}. The command attempted to sort columns: ${sortColumn}.'),
  CANNOT_SORT_ON_SPECIAL_WITH_OTHERS: request('SORT', 'Lexical, vector or vectorize sort cannot be combined with other sort expressions', 'The command used a sort clause with a special (lexical/vector/vectorize) sort combined with one or more other sort expressions. The command attempted to use lexical sort on columns: ${lexicalColumns}. The command attempted to use regular sort on columns: ${regularColumns}.'),
  CANNOT_LEXICAL_SORT_WITH_SKIP_OPTION: request('SORT', 'Skip option cannot be used with lexical sort', 'The command attempted to lexical sort along with the skip option set. Resend the command without the skip option.'),
  CANNOT_ANALYZE_ENTRIES_ON_MAP_COLUMNS: request('SCHEMA', 'Cannot analyze entries on map columns', "Index function `entries` can not apply to map column when analyze options are specified. The command attempted to index the entries of the map column ${targetColumn} with the options ${options}: index its $keys or $values to analyze them."),
  UNSUPPORTED_INDEXING_FOR_DATA_TYPES: request('SCHEMA', 'Indexing not supported by data type', "The column '${column}' of type ${type} cannot have a regular index${reason}."),
  UNSUPPORTED_VECTOR_INDEX_FOR_DATA_TYPES: request('SCHEMA', 'Vector index needs a vector column', "The column '${column}' of type ${type} cannot have a vector index: only vector columns can."),
  UNKNOWN_VECTOR_METRIC: request('SCHEMA', 'Unknown vector metric', 'The known metrics are: ${knownMetrics}; the command used: ${unknownMetric}.'),
  UNKNOWN_VECTOR_SOURCE_MODEL: request('SCHEMA', 'Unknown vector source model', 'The known source models are: ${knownSourceModels}; the command used: ${unknownSourceModel}.'),
  VECTOR_SORT_NOT_INDEXED: request('SORT', 'Vector sort on a column without a vector index', "Table ${keyspace}.${table} cannot sort by the vector column '${column}': it has no vector index (create one with createVectorIndex)."),
  MISSING_INDEX: request('WARNING', 'Filter includes columns that are not indexed', 'The filter includes columns that are not indexed. The table ${keyspace}.${table} has the primary key: ${primaryKey}, and has indexes on the columns: ${indexedColumns}. The request filtered on the un-indexed columns: ${unindexedFilters}: every row of the table is read.'),
  ZERO_FILTER_OPERATIONS: request('WARNING', 'Zero operations provided in query filter', 'Zero filters were provided in the filter for this query: every row of table ${keyspace}.${table} is read. The table has the primary key: ${primaryKey}, and indexes on the columns: ${indexedColumns}.'),

  // --- database / server ---------------------------------------------------------------------
  INVALID_DATABASE_QUERY: request('DATABASE', 'Invalid database query', '${reason}'),
  DATABASE_NOT_OPEN: request('DATABASE', 'Database not open', "Database '${location}' is ${state}: open it (or create a new VectorDB) before use."),
  DATABASE_LOCKED: server('STORAGE', 'Database in use', "Database '${location}' is in use${holder} (its lock is held: LevelDB's in a directory, a Web Lock in a browser). Stop that process, or, if it is `vectordb-local serve`, connect to it over HTTP (new VectorDB(token, 'http://127.0.0.1:8181')) instead of opening the directory; in a browser, close the other tab; or use another database."),
  DATABASE_NOT_FOUND: request('DATABASE', 'Database not found', "No database '${database}' found${where}."),
  DATABASE_IN_USE: request('DATABASE', 'Database open elsewhere', "Database '${database}' is open ${where}: close it there, then try again.", 409),

  // --- administration (a home of databases, see src/admin/) ------------------------------------
  HOME_NOT_FOUND: request('DATABASE', 'Home not found', "No vectordb-local home at '${home}': create one with VectorDBAdmin.initHome(home).", 404),
  HOME_ALREADY_EXISTS: request('DATABASE', 'Home already exists', "'${home}' already is a vectordb-local home: it was initialised before, and its first token was shown then. Use a token of it, or choose another directory.", 409),
  HOME_REGISTRY_CORRUPTED: server('DATABASE', 'Home registry unreadable', "The registry '${location}' of this home cannot be read: ${reason}"),
  HOME_LOCKED: server('DATABASE', 'Home busy', "The registry of home '${home}' stayed locked for ${seconds} s (lock file ${lockFile}, held by ${holder}). If no vectordb-local process is running, delete the lock file."),
  TOKEN_NOT_FOUND: request('SECURITY', 'Token not found', 'No token of this home matches the given token or client id.', 404),

  DATABASE_CORRUPTED: server('DATABASE', 'Database corrupted', "The database at '${location}' is corrupted: ${reason}"),
  STORAGE_FORMAT_UNSUPPORTED: server('STORAGE', 'Storage format unsupported', "The database at '${location}' was written in storage format ${format}, newer than this version of vectordb-local reads (${supported}): upgrade vectordb-local."),
  STORAGE_IO_ERROR: server('STORAGE', 'Storage I/O error', "I/O error on the database at '${location}': ${reason}"),
  STORAGE_READ_ONLY: server('STORAGE', 'Storage read-only', "The database at '${location}' is on a read-only file system (${reason}): it cannot be ${doing}. Remount the file system read-write, or copy the directory to a writable one.${sticky}"),
  STORAGE_PERMISSION_DENIED: server('STORAGE', 'Storage permission denied', "The database at '${location}' cannot be ${doing}: permission denied (${reason}). Give the user this process runs as read and write access to the directory and its files.${sticky}"),
  BACKUP_INCOMPLETE: server('STORAGE', 'Backup incomplete', "'${location}' ${reason}: it is not opened. Run the backup again (it replaces the partial copy '${partial}'), or delete that directory."),
  STORAGE_TARGET_NOT_EMPTY: request('STORAGE', 'Target not empty', "'${location}' ${reason}: choose a new or empty directory."),
  VECTOR_INDEX_CAPACITY: server('VECTOR', 'Vector index is full', "The ${backend} vector index of collection '${collection}' cannot grow past ${max} vectors of ${dimension} dimensions: ${reason}"),
  VECTOR_INDEX_INCOMPATIBLE: server('VECTOR', 'Stored vector index not loadable', "The stored vector index of collection '${collection}' cannot be loaded by the ${backend} backend: ${reason}. Rebuild it from the stored vectors."),
  FAILED_CONCURRENT_OPERATIONS: server('DATABASE', 'Concurrent operations failed', 'Failed to complete the operation because of concurrent writes: ${reason}.'),
  UNEXPECTED_SERVER_ERROR: server('', 'Unexpected server error', 'Server failed: ${reason}'),

  // --- warnings ------------------------------------------------------------------------------
  RERANKING_PROVIDER_NOT_REGISTERED: request('WARNING', 'Reranking provider not registered', "The collection's reranking provider '${provider}' is not registered with this database, so the documents are in reciprocal-rank fusion order (the built-in 'rrf' provider). Register one with new VectorDB(token, dir, keyspace, { rerankers: { ${provider}: url or (query, passages) => scores } }) or serve --reranker ${provider}=URL."),
  DEPRECATED_COMMAND: request('WARNING', 'Deprecated command', 'The deprecated command is: ${command}. The new command to use is: ${replacement}.'),
} as const satisfies Record<string, ErrorCodeSpec>;

export type ErrorCode = keyof typeof ERROR_CODES;
