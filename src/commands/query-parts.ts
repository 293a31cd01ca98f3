/**
 * A collection command's query parts (filter, sort, projection, update) parsed against the target collection's
 * indexing and limits: parsed filters cached per collection, a `$vectorize` sort and an update's `$vectorize`
 * text given their vectors (vectorize.ts).
 */
import { VectorDbError } from '../errors/index.js';
import type { Collection } from '../engine/collections/collection.js';
import { toJsonText } from '../query/exact-number.js';
import type { JsonValue } from '../query/json.js';
import { parseFilter, type Filter } from '../query/filter.js';
import { parseProjection, type Projection } from '../query/projection.js';
import { parseSort, type SortSpec } from '../query/sort.js';
import { parseUpdate, type Update } from '../query/update.js';
import type { CommandBody } from './command-body.js';
import type { CommandContext } from './context.js';
import { collectionTarget, isVectorizeSort, vectorizeSort, vectorizeUpdate } from './vectorize.js';

const FILTER_CACHE_SIZE = 256;
/** Recently parsed filters per collection, oldest first. */
const filterCache = new WeakMap<Collection, Map<string, Filter>>();

/** A collection command's query parts, parsed against the collection. */
export class QueryParts {
  readonly #collection: Collection;
  readonly #body: CommandBody;
  readonly #ctx: CommandContext;

  constructor(ctx: CommandContext, collection: Collection, body: CommandBody) {
    this.#ctx = ctx;
    this.#collection = collection;
    this.#body = body;
  }

  /** Parsed filters are immutable: the same filter text on the same collection is parsed (and compiled) once. */
  filter(): Filter {
    const raw = this.#body.get('filter');
    // No filter (most vector searches) is keyed as its text would be, without writing it.
    const text = raw === undefined ? 'null' : toJsonText(raw);
    let cache = filterCache.get(this.#collection);
    const cached = cache?.get(text);
    if (cached) return cached;
    const limits = this.#collection.limits;
    const filter = parseFilter(raw, {
      isIndexed: this.#collection.isIndexed,
      maxClauses: limits.maxFilterClauses,
      maxInValues: limits.maxInValues,
      lexical: { analyzer: this.#collection.analyzer, disabled: () => lexicalDisabled(this.#collection) },
    });
    if (!cache) filterCache.set(this.#collection, (cache = new Map()));
    if (cache.size >= FILTER_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(text, filter);
    return filter;
  }

  /**
   * The sort; a `$vectorize` sort is the vector sort of its text's embedding (computed here, so a promise).
   * Any other sort is parsed now: no await (a microtask turn and an async frame) on every vector search.
   */
  sort(): SortSpec | Promise<SortSpec> {
    const raw = this.#body.get('sort');
    if (!isVectorizeSort(raw)) return this.#parseSort(raw);
    return vectorizeSort(this.#ctx, collectionTarget(this.#collection), raw).then((vectorized) => this.#parseSort(vectorized));
  }

  #parseSort(raw: JsonValue | undefined): SortSpec {
    const sort = parseSort(raw, {
      isIndexed: this.#collection.isIndexed,
      lexicalEnabled: this.#collection.analyzer !== undefined,
      lexicalDisabled: () => lexicalDisabled(this.#collection),
    });
    if (sort.kind === 'vector') {
      const record = this.#collection.record;
      if (!record.options.vector) {
        throw VectorDbError.of('VECTOR_SEARCH_NOT_SUPPORTED', { keyspace: record.keyspace, collection: record.name });
      }
    }
    return sort;
  }

  projection(): Projection {
    return parseProjection(this.#body.get('projection'));
  }

  /** The update; the vectors of the `$vectorize` text it sets are computed here. */
  async update(field = 'update'): Promise<Update> {
    const raw = this.#body.get(field);
    if (raw === undefined) {
      throw VectorDbError.of('COMMAND_FIELD_VALUE_INVALID', { field: 'command.updateClause', value: '`null`', reason: 'must not be null' });
    }
    return vectorizeUpdate(this.#ctx, collectionTarget(this.#collection), parseUpdate(raw));
  }
}

function lexicalDisabled(collection: Collection): VectorDbError {
  return VectorDbError.of('LEXICAL_NOT_ENABLED_FOR_COLLECTION', { keyspace: collection.record.keyspace, collection: collection.record.name });
}
