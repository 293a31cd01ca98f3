/**
 * findAndRerank (hybrid search) and findRerankingProviders: the request and response of the Data API
 * (reference hybrid-search.md 1.4). Two reads with the same filter, a vector search and a BM25 search, merged
 * by `_id` with their ranks; documents without the passage field dropped; the collection's (or the command's)
 * reranking provider scores the passages; order by rerank score, ties by reciprocal-rank fusion (k = 60).
 */
import { VectorDbError } from '../errors/index.js';
import type { Collection, FoundDocument } from '../engine/collections/collection.js';
import { parseRerankService, type RerankService } from '../engine/collections/hybrid-options.js';
import { copyNestedValues, isObject, splitPath, valueAtPath, type JsonObject, type JsonValue } from '../query/json.js';
import { decodeVector, queryVectorArray } from '../query/vector-value.js';
import { RRF_PROVIDER, RerankerError, rerankerOf, rerankersOf } from '../providers/rerankers.js';
import { CommandBody, invalid, type Options } from './command-body.js';
import type { CommandContext, CommandHandler, CommandSpec } from './context.js';
import { QueryParts } from './query-parts.js';
import { collectionTarget, embedTexts } from './vectorize.js';

const OPTIONS = ['limit', 'hybridLimits', 'rerankOn', 'rerankQuery', 'includeScores', 'includeSortVector', 'rerank'];
/** Reciprocal-rank fusion's constant (the Data API's Score.RRFScore K). */
export const RRF_K = 60;
const DEFAULT_LIMIT = 10;
const DEFAULT_HYBRID_LIMIT = 50;
const MAX_HYBRID_LIMIT = 100;

interface HybridSort {
  readonly vector?: { readonly values: Float32Array; readonly raw: JsonValue };
  readonly vectorize?: string;
  readonly lexical?: string;
}

/** One document of the merged reads: its ranks (from 1) and the vector read's similarity. */
interface Candidate {
  readonly found: FoundDocument;
  vectorRank: number | null;
  bm25Rank: number | null;
  similarity: number | null;
}

const sortInvalid = (reason: string) => VectorDbError.of('SORT_CLAUSE_INVALID', { reason });
const blankToUndefined = (text: string | undefined) => (text === undefined || text.trim() === '' ? undefined : text);

/** `{"$hybrid": text | {"$vectorize"|"$vector", "$lexical"}}`; blank strings and null skip that read. */
function parseHybridSort(raw: JsonValue | undefined): HybridSort {
  if (!isObject(raw) || !('$hybrid' in raw)) throw sortInvalid("findAndRerank needs a sort clause {\"$hybrid\": ...}");
  const extra = Object.keys(raw).filter((k) => k !== '$hybrid');
  if (extra.length > 0) throw sortInvalid(`findAndRerank sorts only by '$hybrid', not '${extra[0]}'`);
  const hybrid = raw.$hybrid;
  if (typeof hybrid === 'string') {
    const text = blankToUndefined(hybrid);
    return text === undefined ? {} : { vectorize: text, lexical: text };
  }
  if (!isObject(hybrid)) throw sortInvalid(`'$hybrid' must be a String or an Object, not ${hybrid === null ? 'null' : typeof hybrid}`);
  const unknown = Object.keys(hybrid).filter((k) => k !== '$vector' && k !== '$vectorize' && k !== '$lexical');
  if (unknown.length > 0) throw sortInvalid(`'$hybrid' may have '$vector', '$vectorize' and '$lexical', not '${unknown[0]}'`);
  if (hybrid.$vector != null && hybrid.$vectorize != null) throw sortInvalid("'$hybrid' cannot have both '$vector' and '$vectorize'");
  const text = (field: string): string | undefined => {
    const value = hybrid[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') throw sortInvalid(`'$hybrid.${field}' must be a String`);
    return blankToUndefined(value);
  };
  const sort: { -readonly [K in keyof HybridSort]: HybridSort[K] } = {};
  const vectorize = text('$vectorize');
  const lexical = text('$lexical');
  if (vectorize !== undefined) sort.vectorize = vectorize;
  if (lexical !== undefined) sort.lexical = lexical;
  if (hybrid.$vector != null) {
    const decoded = decodeVector(hybrid.$vector, queryVectorArray);
    if (decoded !== null) sort.vector = { values: decoded.values, raw: hybrid.$vector };
  }
  return sort;
}

/** `hybridLimits`: one number for both reads, or `{"$vector": n, "$lexical": m}`; each 1..100 (default 50). */
function parseHybridLimits(options: Options): { vector: number; lexical: number } {
  const raw = options.raw('hybridLimits');
  const check = (field: string, value: JsonValue | undefined): number => {
    if (value === undefined || value === null) return DEFAULT_HYBRID_LIMIT;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_HYBRID_LIMIT) {
      throw invalid(field, value, `hybridLimits must be an integer from 1 to ${MAX_HYBRID_LIMIT}`);
    }
    return value;
  };
  if (raw === undefined || typeof raw === 'number') return { vector: check('options.hybridLimits', raw), lexical: check('options.hybridLimits', raw) };
  if (!isObject(raw)) throw invalid('options.hybridLimits', raw, 'must be a number or an Object with $vector and $lexical');
  const unknown = Object.keys(raw).filter((k) => k !== '$vector' && k !== '$lexical');
  if (unknown.length > 0) throw invalid('options.hybridLimits', raw, `may have '$vector' and '$lexical', not '${unknown[0]}'`);
  return { vector: check('options.hybridLimits.$vector', raw.$vector), lexical: check('options.hybridLimits.$lexical', raw.$lexical) };
}

/** The vector read's query vector for `$vectorize` text: its embedding by the collection's provider. */
async function vectorizedQuery(ctx: CommandContext, collection: Collection, text: string): Promise<NonNullable<HybridSort['vector']>> {
  const [embedding] = await embedTexts(ctx, collectionTarget(collection), [text], 'search');
  return { values: decodeVector(embedding!, queryVectorArray)!.values, raw: embedding! };
}

const findAndRerank: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('findAndRerank', raw, ['filter', 'projection', 'sort', 'options']);
  const options = body.options(OPTIONS);
  const collection = ctx.collection();
  const record = collection.record;
  const parts = new QueryParts(ctx, collection, body);
  const filter = parts.filter();
  const projection = parts.projection();
  const sort = parseHybridSort(body.get('sort'));
  const limit = options.integer('limit', 1, 'limit should be greater than `0`') ?? DEFAULT_LIMIT;
  const hybridLimits = parseHybridLimits(options);
  const rerankOn = blankToUndefined(options.string('rerankOn'));
  const rerankQuery = blankToUndefined(options.string('rerankQuery'));
  const includeScores = options.boolean('includeScores', false);
  const includeSortVector = options.boolean('includeSortVector', false);
  const override = options.raw('rerank');
  const names = { keyspace: record.keyspace, collection: record.name };

  if (sort.vectorize !== undefined && !record.options.vector?.service) throw VectorDbError.of('UNSUPPORTED_VECTORIZE_SORT_FOR_COLLECTION', names);
  if (sort.vector === undefined && sort.vectorize === undefined) throw sortInvalid("findAndRerank needs a vector read: give '$hybrid' a '$vector' (or '$vectorize' text)");
  const vectorOptions = record.options.vector;
  if (!vectorOptions) throw VectorDbError.of('VECTOR_SEARCH_NOT_SUPPORTED', names);
  if (sort.lexical !== undefined && collection.analyzer === undefined) throw VectorDbError.of('LEXICAL_NOT_ENABLED_FOR_COLLECTION', names);
  let service: RerankService | undefined;
  if (override !== undefined) service = parseRerankService(override, (message) => VectorDbError.of('INVALID_RERANK_OVERRIDE', { message }));
  else if (record.options.rerank?.enabled) service = record.options.rerank.service;
  if (service === undefined) throw VectorDbError.of('UNSUPPORTED_RERANKING_COMMAND');
  // As the Data API: the passages are the `$vectorize` texts and the query the sort's, unless told otherwise.
  const passagePath = rerankOn ?? (sort.vectorize !== undefined ? '$vectorize' : undefined);
  if (passagePath === undefined) throw invalid('options.rerankOn', undefined, 'the field whose text is reranked is required (there is no $vectorize text)');
  const query = rerankQuery ?? sort.vectorize;
  if (query === undefined) throw VectorDbError.of('MISSING_RERANK_QUERY_TEXT');
  const vector = sort.vector ?? (await vectorizedQuery(ctx, collection, sort.vectorize!));

  const withVector = projection.includesVector;
  // As find does: without the vector, the vector read may hand out the store's cached bodies (no re-read, no
  // parse); nothing here changes them, and the documents returned are copied.
  const shared = !withVector;
  const [vectorHits, lexicalHits] = await Promise.all([
    collection.select({ filter, sort: { kind: 'vector', vector: vector.values, raw: vector.raw }, limit: hybridLimits.vector, withVector, withSimilarity: true, shared }),
    sort.lexical === undefined ? [] : collection.lexicalSelect({ filter, limit: hybridLimits.lexical, withVector }, sort.lexical),
  ]);
  const merged = new Map<string, Candidate>();
  vectorHits.documents.forEach((found, i) => merged.set(found.key, { found, vectorRank: i + 1, bm25Rank: null, similarity: found.similarity ?? null }));
  lexicalHits.forEach((found, i) => {
    const seen = merged.get(found.key);
    if (seen) seen.bm25Rank = i + 1;
    else merged.set(found.key, { found, vectorRank: null, bm25Rank: i + 1, similarity: null });
  });
  const segments = splitPath(passagePath) ?? [passagePath];
  const candidates = [...merged.values()].filter((c) => typeof valueAtPath(c.found.doc, segments) === 'string');
  const passages = candidates.map((c) => valueAtPath(c.found.doc, segments) as string);

  const warnings: VectorDbError[] = [];
  let reranker = rerankerOf(ctx.db, service.provider);
  if (reranker === undefined) {
    warnings.push(VectorDbError.warning('RERANKING_PROVIDER_NOT_REGISTERED', { provider: service.provider }));
    reranker = rerankerOf(ctx.db, RRF_PROVIDER)!;
  }
  let scores: number[];
  try {
    scores = passages.length === 0 ? [] : await reranker.rerank(query, passages, { model: service.modelName, apiKey: ctx.request.rerankingApiKey });
  } catch (error) {
    if (error instanceof RerankerError) throw VectorDbError.of('RERANKING_PROVIDER_FAILED', { provider: error.provider, reason: error.message });
    throw error;
  }
  const rrf = (c: Candidate) => (c.vectorRank === null ? 0 : 1 / (RRF_K + c.vectorRank)) + (c.bm25Rank === null ? 0 : 1 / (RRF_K + c.bm25Rank));
  const ranked = candidates.map((c, i) => ({ c, rerank: scores[i]!, rrf: rrf(c) }));
  ranked.sort((a, b) => b.rerank - a.rerank || b.rrf - a.rrf);
  const top = ranked.slice(0, limit);
  const documents = top.map(({ c }) => (shared ? copyNestedValues(projection.apply(c.found.doc, undefined)) : projection.apply(c.found.doc, undefined)));
  const status: JsonObject = {};
  if (includeScores) {
    status.documentResponses = top.map(({ c, rerank, rrf: fused }) => ({ scores: { $rerank: rerank, $vector: c.similarity, $vectorRank: c.vectorRank, $bm25Rank: c.bm25Rank, $rrf: fused } }));
  }
  if (includeSortVector) status.sortVector = Array.from(vector.values);
  return { data: { documents, nextPageState: null }, ...(Object.keys(status).length > 0 ? { status } : {}), ...(warnings.length > 0 ? { warnings } : {}) };
};

/** The registered reranking providers in the Data API's shape (`rrf`, the built-in, first and default). */
const findRerankingProviders: CommandHandler = async (raw, ctx) => {
  new CommandBody('findRerankingProviders', raw, ['options']);
  const providers: JsonObject = {};
  for (const reranker of rerankersOf(ctx.db)) {
    const isDefault = reranker.name === RRF_PROVIDER;
    const model = reranker.defaultModel ?? (isDefault ? 'reciprocal-rank-fusion' : reranker.kind === 'function' ? 'function' : 'default');
    providers[reranker.name] = {
      displayName: isDefault ? 'Reciprocal-rank fusion (no model)' : reranker.name,
      isDefault,
      // The request's x-rerank-api-key is passed on to an endpoint as `Authorization: Bearer` (a function gets it as context.apiKey).
      supportedAuthentication: { NONE: { enabled: true, tokens: [] }, HEADER: { enabled: !isDefault, tokens: isDefault ? [] : [{ accepted: 'x-rerank-api-key', forwarded: 'Authorization' }] } },
      models: [{ name: model, isDefault: true, url: null, properties: null, apiModelSupport: { status: 'SUPPORTED' } }],
    };
  }
  return { status: { rerankingProviders: providers } };
};

export const RERANK_COMMANDS: Record<string, CommandSpec> = {
  findAndRerank: { level: 'collection', run: findAndRerank },
};

export const RERANK_DATABASE_COMMANDS: Record<string, CommandSpec> = {
  findRerankingProviders: { level: 'database', run: findRerankingProviders },
};
