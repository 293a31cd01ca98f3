/**
 * Data API errors as GraphQL errors: the message is the Data API's, `extensions` carries its code, family,
 * scope and title, so a GraphQL client can branch on the same codes as a Data API client.
 */
import { GraphQLError } from 'graphql';
import type { CommandResponse } from '../commands/index.js';
import type { WireError } from '../errors/index.js';

export function graphqlErrorOf(error: WireError): GraphQLError {
  return new GraphQLError(error.message, {
    extensions: {
      code: error.errorCode,
      family: error.family,
      scope: error.scope,
      title: error.title,
      ...(error.documentIds ? { documentIds: error.documentIds } : {}),
    },
  });
}

/** Throws the response's first error as a GraphQLError; returns the response when it has none. */
export function orThrow(response: CommandResponse): CommandResponse {
  const first = response.errors?.[0];
  if (first !== undefined) throw graphqlErrorOf(first);
  return response;
}

/** An error of the GraphQL layer itself (bad argument combination), with a Data API-style code. */
export function argumentError(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'INVALID_GRAPHQL_ARGUMENT', family: 'REQUEST', scope: 'GRAPHQL' } });
}
