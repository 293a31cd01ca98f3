/**
 * What `db.graphql()` resolves to: GraphQL's response shape, errors as JSON (graphql-js's GraphQLFormattedError,
 * spelled out here so the public declarations do not need graphql's types).
 */
export interface GraphqlError {
  readonly message: string;
  readonly locations?: readonly { readonly line: number; readonly column: number }[];
  readonly path?: readonly (string | number)[];
  /** `code` is the Data API error code when a command failed. */
  readonly extensions?: { readonly [key: string]: unknown };
}

export interface GraphqlResult {
  data?: Record<string, unknown> | null;
  errors?: GraphqlError[];
}
