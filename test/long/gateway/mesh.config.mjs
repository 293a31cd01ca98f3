// Mesh Compose config of the Hive Gateway interop test: imports /api/graphql/<keyspace> of a running
// vectordb-local server (VECTORDB_GRAPHQL_URL, VECTORDB_TOKEN) with the prefix Shop_; the caller's
// X-Vendor-Token is forwarded on every operation.
import { createPrefixTransform, defineConfig, loadGraphQLHTTPSubgraph } from '@graphql-mesh/compose-cli';

export const composeConfig = defineConfig({
  subgraphs: [
    {
      sourceHandler: loadGraphQLHTTPSubgraph('Shop', {
        endpoint: process.env.VECTORDB_GRAPHQL_URL,
        schemaHeaders: { 'X-Vendor-Token': process.env.VECTORDB_TOKEN },
        operationHeaders: { 'X-Vendor-Token': "{context.headers['x-vendor-token']}" },
      }),
      transforms: [createPrefixTransform({ value: 'Shop_', includeRootOperations: true })],
    },
  ],
});
