/**
 * Sorting by one indexed path through its index, so that a sorted find reads documents in order and stops
 * after one page instead of reading (and holding) every match. Index order is the Data API's sort order
 * for atomic values (null < numbers < strings < booleans < dates, strings by UTF-16 code units); arrays,
 * sub-documents and other EJSON values (filed as `container` entries, first in the index) are merged in by
 * the comparator; equal values are ordered by the comparator too (`_id` tie-breaker). Documents missing the
 * path sort first ascending and last descending, so an ascending sort needs a filter that implies the path
 * is present.
 * The index is a superset: `a.b` also holds the values of `a.0.b` (array elements, numeric keys), which a
 * sort on `a.b` does not see. So a document is taken only at the entry that is its own value at the path.
 */
import type { Filter, FilterNode } from '../../query/filter.js';
import { isArrayIndex, valueAtPath, type Document } from '../../query/json.js';
import { documentComparator, type SortField } from '../../query/sort.js';
import { TYPE_TAG, encodeIndexScalar } from '../../storage/keys.js';
import type { FoundDocument } from './types.js';
import type { DocumentStore } from './document-store.js';
import { rangeBounds, rootRangeClauses } from './planner.js';
import { indexScalarOf, isFiled } from './shredder.js';

export interface IndexSortRequest {
  readonly store: DocumentStore;
  readonly filter: Filter;
  readonly field: SortField;
  /** Documents needed: skip + page. */
  readonly need: number;
  /** Give up (the caller sorts in memory) after reading this many documents. */
  readonly maxReads: number;
  /** Whether the documents come back with their `$vector` values. */
  readonly withVector: boolean;
}

/** Operators that only match documents where the path is present. */
const PRESENT_OPS = new Set(['$eq', '$in', '$gt', '$gte', '$lt', '$lte', '$all', '$size']);

/** True when every document the filter matches has a value at `path`. */
export function filterImpliesPresence(filter: Filter, path: string): boolean {
  const root: FilterNode = filter.root;
  if (root.kind !== 'and') return false;
  return root.children.some(
    (child) => child.kind === 'compare' && child.path === path && (PRESENT_OPS.has(child.op) || (child.op === '$exists' && child.value === true)),
  );
}

export function canSortWithIndex(filter: Filter, field: SortField, isIndexed: (path: string) => boolean): boolean {
  if (field.path === '_id' || field.path.startsWith('$') || field.segments.some(isArrayIndex) || !isFiled(field.path, isIndexed)) return false;
  return field.direction === -1 || filterImpliesPresence(filter, field.path);
}

/** The first `need` documents in sort order, or undefined when the index cannot answer (fall back to memory). */
export async function sortWithIndex(request: IndexSortRequest): Promise<FoundDocument[] | undefined> {
  const { store, filter, field, need, maxReads } = request;
  const compare = documentComparator([field]);
  const byDoc = (a: FoundDocument, b: FoundDocument) => compare(a.doc, b.doc);
  /** The encoded index value of the document's own value at the path (undefined: missing). */
  const ownEntry = (doc: Document): string | undefined => {
    const value = valueAtPath(doc, field.segments);
    return value === undefined ? undefined : encodeIndexScalar(indexScalarOf(value));
  };
  let reads = 0;
  // A range on the sort path bounds the walk (and no array or sub-document is in a range).
  const ranges = rootRangeClauses(filter.root, field.path);
  const bounded = ranges.length > 0 ? rangeBounds(ranges) : undefined;

  // Arrays, sub-documents and other EJSON: their marker entries, then their documents, sorted by the comparator.
  const containerList: string[] = [];
  if (bounded === undefined) {
    for await (const entry of store.indexEntries(field.path, { gte: TYPE_TAG.container, lt: TYPE_TAG.null })) {
      containerList.push(entry.key);
      if (containerList.length > maxReads) return undefined;
    }
  }
  const containers: FoundDocument[] = [];
  const containerDocs = await store.getMany(containerList, request);
  reads += containerList.length;
  containerDocs.forEach((doc, i) => {
    if (doc && filter.matches(doc) && ownEntry(doc) === TYPE_TAG.container) containers.push({ key: containerList[i]!, doc });
  });
  containers.sort(byDoc);

  // Atomic values in index order, a run of equal values at a time, merged with the containers.
  const out: FoundDocument[] = [];
  let run: FoundDocument[] = [];
  let runValue: string | undefined;
  let pending: { value: string; key: string }[] = [];
  const flushRun = () => {
    run.sort(byDoc);
    for (const found of run) {
      while (containers.length > 0 && byDoc(containers[0]!, found) < 0) out.push(containers.shift()!);
      out.push(found);
    }
    run = [];
  };
  const readPending = async (): Promise<void> => {
    const docs = await store.getMany(pending.map((e) => e.key), request);
    reads += pending.length;
    pending.forEach((entry, i) => {
      const doc = docs[i];
      if (entry.value !== runValue) {
        flushRun();
        runValue = entry.value;
      }
      // Not its own value (an array element's or a numeric key's): it is taken at its own entry (a
      // document has one entry per value, so it is taken once), or not at all.
      if (!doc || ownEntry(doc) !== entry.value || !filter.matches(doc)) return;
      run.push({ key: entry.key, doc });
    });
    pending = [];
  };
  const reverse = field.direction === -1;
  for await (const entry of store.indexEntries(field.path, bounded ?? { gte: TYPE_TAG.null }, reverse)) {
    pending.push(entry);
    if (pending.length < 64) continue;
    await readPending();
    // Done once enough documents are out and the current run of equal values is complete.
    if (out.length >= need) return out.slice(0, need);
    if (reads > maxReads) return undefined;
  }
  await readPending();
  flushRun();
  out.push(...containers);
  // The index ran out: descending, documents missing the path come last and were not seen here.
  if (out.length < need && !filterImpliesPresence(filter, field.path)) return undefined;
  return out.slice(0, need);
}
