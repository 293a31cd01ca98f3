/**
 * The GraphQL layer (over commands/, like http/): per-keyspace schemas with Stargate's names, every resolver a
 * Data API command. http/ mounts it at /api/graphql/{keyspace} and /api/graphql-schema; clients call db.graphql().
 */
export { GraphqlService, type CommandRunner, type GraphqlRequest, type GraphqlResult, type GraphqlServiceOptions } from './service.js';
export { entityName, fieldName, toDatabaseName } from './names.js';
