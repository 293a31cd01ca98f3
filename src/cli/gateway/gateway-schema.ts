/**
 * The gateway's schema, by schema delegation (@graphql-tools/wrap, the engine under Hive Gateway and Mesh):
 * each source's imported SDL is wrapped over an HTTP executor to the source, its types and root fields get the
 * source's prefix, and several sources are merged into one schema.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { mergeSchemas } from '@graphql-tools/schema';
import { RenameRootFields, RenameTypes, wrapSchema } from '@graphql-tools/wrap';
import { buildSchema, type GraphQLSchema } from 'graphql';
import { sourceExecutor } from './introspect.js';
import type { Workspace } from './workspace.js';

export async function gatewaySchema(dir: string, workspace: Workspace): Promise<GraphQLSchema> {
  const wrapped: GraphQLSchema[] = [];
  for (const source of workspace.sources) {
    const file = path.join(dir, source.schema);
    let schema: GraphQLSchema;
    try {
      schema = buildSchema(await readFile(file, 'utf8'));
    } catch (error) {
      throw new Error(`${source.schema}: ${(error as Error).message}`);
    }
    const prefix = source.prefix;
    wrapped.push(
      wrapSchema({
        schema,
        executor: sourceExecutor(source.url, source.headers),
        transforms: prefix ? [new RenameTypes((name) => `${prefix}${name}`), new RenameRootFields((_operation, name) => `${prefix}${name}`)] : [],
      }),
    );
  }
  if (wrapped.length === 0) throw new Error('the workspace has no source: run vectordb-local gateway import graphql');
  return wrapped.length === 1 ? wrapped[0]! : mergeSchemas({ schemas: wrapped });
}
