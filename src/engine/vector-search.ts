/**
 * Vector sort for one collection. This first version scans the stored documents' vectors exactly
 * (correct at any size, fast for small collections and small candidate sets); the HNSW index
 * replaces the full-collection scan.
 */
import type { Document } from '../query/json.js';
import { decodeVector } from '../query/vector-value.js';
import type { Metric } from './collection-schema.js';
import type { ChangeHook, DocumentStore } from './document-store.js';

export interface ScoredDocument {
  readonly key: string;
  readonly doc: Document;
  readonly similarity: number;
}

export class VectorSearch {
  readonly #store: DocumentStore;
  readonly #metric: Metric;
  /** Vector records are kept by the index version; the exact scan needs none. */
  readonly hook: ChangeHook | undefined = undefined;

  constructor(store: DocumentStore, metric: Metric) {
    this.#store = store;
    this.#metric = metric;
  }

  /** Top k documents by similarity, best first; documents without a vector never appear. */
  async search(query: Float32Array, k: number, candidateKeys: readonly string[] | undefined, accept?: (doc: Document) => boolean): Promise<ScoredDocument[]> {
    const top: ScoredDocument[] = [];
    const consider = (key: string, doc: Document): void => {
      const vector = decodeVector(doc.$vector)?.values;
      if (!vector || (accept && !accept(doc))) return;
      const similarity = score(this.#metric, query, vector);
      if (top.length === k && similarity <= top[k - 1]!.similarity) return;
      let i = top.length;
      while (i > 0 && top[i - 1]!.similarity < similarity) i--;
      top.splice(i, 0, { key, doc, similarity });
      if (top.length > k) top.pop();
    };
    if (candidateKeys === undefined) {
      for await (const { key, doc } of this.#store.scan()) consider(key, doc);
    } else {
      const docs = await this.#store.getMany(candidateKeys);
      docs.forEach((doc, i) => doc && consider(candidateKeys[i]!, doc));
    }
    return top;
  }

  /** Forgets in-memory state after the collection is emptied. */
  reset(): void {}
}

function score(metric: Metric, a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  let d2 = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
    d2 += (x - y) * (x - y);
  }
  switch (metric) {
    case 'cosine':
      return (1 + dot / Math.sqrt(na * nb)) / 2;
    case 'dot_product':
      return (1 + dot) / 2;
    case 'euclidean':
      return 1 / (1 + d2);
  }
}
