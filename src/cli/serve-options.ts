/**
 * What `vectordb-local serve` is given (parsed by main.ts): the data directory or home, where to listen, the
 * token, limits and logging. Shared by serve.ts (one database) and serve-home.ts (a home of databases).
 */
import type { LimitsOption } from '../engine/limits.js';

export interface ServeOptions {
  readonly data: string;
  /** When given, serves every database of this home (see serve-home.ts) instead of `data`. */
  readonly home?: string;
  readonly host: string;
  readonly port: number;
  readonly token?: { readonly token: string; readonly source: 'flag' | 'env' } | undefined;
  readonly maxBodyBytes?: number | undefined;
  readonly log: boolean;
  /** Origins whose pages may call the server (CORS; see http/cors.ts). */
  readonly corsOrigins?: readonly string[];
  /** Reranking providers: name -> URL of an endpoint in NVIDIA's reranking format (`--reranker name=URL`). */
  readonly rerankers?: Readonly<Record<string, string>>;
  /** Embedding providers: name -> URL of an endpoint in the OpenAI embeddings format (`--embedder name=URL`). */
  readonly embedders?: Readonly<Record<string, string>>;
  readonly version: string;
  /** The limits preset and overrides of it (see engine/limits.ts). */
  readonly limits?: LimitsOption;
  /** The database option bodyCacheBytes (see engine/database.ts), for each database served. */
  readonly bodyCacheBytes?: number;
  /** The database option durability (see engine/database-options.ts), for each database served. */
  readonly durability?: 'full' | 'relaxed';
}
