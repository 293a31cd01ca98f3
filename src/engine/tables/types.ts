/**
 * What a table's operations take and return: row outcomes of an insert, an update's changes, a select's
 * sort and request, and a page of found rows. The command layer turns these into Data API envelopes.
 */
import type { VectorDbError } from '../../errors/index.js';
import type { JsonObject, JsonValue } from '../../query/json.js';
import type { TableFilter } from './filter.js';
import type { StoredRow } from './store.js';

export type RowOutcome =
  | { readonly status: 'OK'; readonly row: JsonObject }
  | { readonly status: 'ERROR'; readonly row?: JsonObject; readonly error: VectorDbError }
  | { readonly status: 'SKIPPED'; readonly row?: JsonObject };

export interface FoundRow extends StoredRow {
  readonly similarity?: number;
}

/** An updateOne's changes: columns set, unset, and elements pushed to / pulled from collection columns. */
export interface RowUpdate {
  readonly set: JsonObject;
  readonly unset: readonly string[];
  readonly push?: Readonly<Record<string, readonly JsonValue[]>>;
  readonly pull?: Readonly<Record<string, readonly JsonValue[]>>;
}

export type RowSort =
  | { readonly kind: 'none' }
  | { readonly kind: 'columns'; readonly columns: readonly (readonly [string, 1 | -1])[] }
  | { readonly kind: 'vector'; readonly column: string; readonly vector: Float32Array }
  | { readonly kind: 'lexical'; readonly column: string; readonly query: string };

export interface RowSelect {
  readonly filter: TableFilter;
  readonly sort: RowSort;
  readonly limit?: number | undefined;
  readonly skip?: number | undefined;
  readonly pageState?: string | undefined;
  /** A vector sort's rows carry the Data API's `$similarity` (false: the ranking's own score, ~1-2 us a row less). */
  readonly withSimilarity?: boolean;
}

export interface RowPage {
  readonly rows: FoundRow[];
  readonly nextPageState: string | null;
  readonly warnings: VectorDbError[];
}
