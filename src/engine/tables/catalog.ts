/**
 * The tables and user-defined types of a database: their records (loaded at open, written through), and
 * the DDL on them (createTable, dropTable, alterTable, createIndex, createVectorIndex, dropIndex, createType,
 * alterType, dropType). The Database owns it: it runs this DDL under its one DDL mutex and hands out numbers.
 */
import { VectorDbError, describeValue } from '../../errors/index.js';
import { isObject, type JsonObject } from '../../query/json.js';
import { bytesToString, keys, type KvOperation, type KvStore } from '../../storage/index.js';
import type { EngineSettings } from '../settings.js';
import { decideIndexMetric } from '../vectors/source-models.js';
import { isValidSchemaName } from '../limits.js';
import { Table } from './table.js';
import { alterTableRecord } from './alter-table.js';
import { parseColumnType, parseTableDefinition, type ColumnType, type TableIndex, type TableRecord, type TypeLookup } from './schema.js';
import { describeIndexOptions, textIndexAnalyzer } from './text-analysis.js';
import { deleteSnapshot } from '../vectors/snapshot.js';

export interface TypeRecord {
  readonly keyspace: string;
  readonly name: string;
  readonly fields: Readonly<Record<string, ColumnType>>;
}

/** What the catalog needs of its database. */
export interface CatalogHost {
  /** A new number for a table or vector index, and the batch operation that persists the sequence. */
  allocate(): { number: number; op: KvOperation };
  /** Collections plus tables, across keyspaces (the collection limit counts both). */
  schemaObjectCount(): number;
  hasCollection(keyspace: string, name: string): boolean;
}

export class TableCatalog {
  readonly #kv: KvStore;
  readonly #settings: EngineSettings;
  readonly #host: CatalogHost;
  /** keyspace -> name -> table / type */
  readonly #tables = new Map<string, Map<string, Table>>();
  readonly #types = new Map<string, Map<string, TypeRecord>>();

  constructor(kv: KvStore, settings: EngineSettings, host: CatalogHost) {
    this.#kv = kv;
    this.#settings = settings;
    this.#host = host;
  }

  async load(): Promise<void> {
    for await (const [, value] of this.#kv.entries({ gte: keys.TYPE_PREFIX, lt: keys.TYPE_PREFIX + keys.HIGH })) {
      const record = JSON.parse(bytesToString(value)) as TypeRecord;
      this.#typesOf(record.keyspace).set(record.name, record);
    }
    for await (const [, value] of this.#kv.entries({ gte: keys.TABLE_PREFIX, lt: keys.TABLE_PREFIX + keys.HIGH })) {
      const record = JSON.parse(bytesToString(value)) as TableRecord;
      this.#tablesOf(record.keyspace).set(record.name, new Table(this.#kv, record, this.#settings, this.typeLookup(record.keyspace)));
    }
  }

  typeLookup(keyspace: string): TypeLookup {
    return (name) => this.#types.get(keyspace)?.get(name)?.fields;
  }

  get count(): number {
    let count = 0;
    for (const tables of this.#tables.values()) count += tables.size;
    return count;
  }

  table(keyspace: string, name: string): Table | undefined {
    return this.#tables.get(keyspace)?.get(name);
  }

  tableNames(keyspace: string): string[] {
    return [...(this.#tables.get(keyspace)?.keys() ?? [])].sort();
  }

  listTables(keyspace: string): Table[] {
    return this.tableNames(keyspace).map((name) => this.table(keyspace, name)!);
  }

  /** Every table, of every keyspace. */
  all(): Table[] {
    return [...this.#tables.values()].flatMap((byName) => [...byName.values()]);
  }

  // ---- tables -------------------------------------------------------------------------------

  /** createTable; false when it existed (and ifNotExists). */
  async createTable(keyspace: string, name: unknown, definition: unknown, ifNotExists: boolean): Promise<boolean> {
    if (!isValidSchemaName(name, this.#settings.limits)) throw VectorDbError.of('UNSUPPORTED_SCHEMA_NAME', { kind: 'Table', name: describeValue(name), max: this.#settings.limits.maxNameLength });
    const parsed = parseTableDefinition(definition, { keyspace, limits: this.#settings.limits, types: this.typeLookup(keyspace) });
    if (this.table(keyspace, name) || this.#host.hasCollection(keyspace, name)) {
      if (ifNotExists) return false;
      throw VectorDbError.of('CANNOT_ADD_EXISTING_TABLE', { table: name, keyspace });
    }
    const count = this.#host.schemaObjectCount();
    const max = this.#settings.limits.maxCollections;
    if (count >= max) throw VectorDbError.of('TOO_MANY_COLLECTIONS', { collection: name, max, count });
    const { number, op } = this.#host.allocate();
    const record: TableRecord = { tid: number, keyspace, name, columns: parsed.columns, primaryKey: parsed.primaryKey, indexes: [], keyFormat: 2 };
    await this.#kv.batch([op, { type: 'put', key: keys.tableKey(keyspace, name), value: JSON.stringify(record) }]);
    this.#tablesOf(keyspace).set(name, new Table(this.#kv, record, this.#settings, this.typeLookup(keyspace)));
    return true;
  }

  /** dropTable: the catalog entry first (leftover data has no owner after a crash), then rows, entries, vectors. */
  async dropTable(keyspace: string, name: string, ifExists: boolean): Promise<void> {
    const table = this.table(keyspace, name);
    if (!table) {
      if (ifExists) return;
      throw VectorDbError.of('CANNOT_DROP_UNKNOWN_TABLE', { unknownTable: name });
    }
    table.markDropped();
    await table.close();
    const { tid, indexes } = table.record;
    await this.#kv.batch([{ type: 'del', key: keys.tableKey(keyspace, name) }]);
    this.#tables.get(keyspace)?.delete(name);
    for (const prefix of [keys.rowPrefix(tid), keys.rowIndexesPrefix(tid), keys.tableLexicalIndexesPrefix(tid)]) await this.#kv.clearRange(prefix, prefix + keys.HIGH);
    for (const index of indexes) if (index.vid !== undefined) await this.#dropVectorRecords(index.vid);
  }

  async #dropVectorRecords(vid: number): Promise<void> {
    for (const prefix of keys.collectionDataPrefixes(vid)) await this.#kv.clearRange(prefix, prefix + keys.HIGH);
    await deleteSnapshot(this.#kv, vid);
  }

  /** alterTable: add columns (a dropped one back with its type) or drop non-key, unindexed columns (tables/alter-table.ts). */
  async alterTable(table: Table, operation: unknown): Promise<void> {
    const { record, work } = alterTableRecord(table.record, operation, { limits: this.#settings.limits, types: this.typeLookup(table.record.keyspace) });
    await this.#saveTable(table, record, work);
  }

  /**
   * Takes a new definition: `work` (filing a new index) runs first, then the record is written, so a crash
   * in between leaves entries that no record names (never read), not a record naming a half-filed index.
   */
  async #saveTable(table: Table, record: TableRecord, work?: Parameters<Table['redefine']>[1]): Promise<void> {
    await table.redefine(record, async (store) => {
      await work?.(store);
      await this.#kv.batch([{ type: 'put', key: keys.tableKey(record.keyspace, record.name), value: JSON.stringify(record) }]);
    });
  }

  // ---- indexes ------------------------------------------------------------------------------

  #indexOwner(keyspace: string, name: string): Table | undefined {
    return this.listTables(keyspace).find((t) => t.record.indexes.some((i) => i.name === name));
  }

  /** createIndex (regular) on a scalar column, or on the values / keys / entries of a list, set or map. */
  async createIndex(table: Table, name: unknown, definition: unknown, ifNotExists: boolean): Promise<void> {
    const record = table.record;
    const { column, target, options } = parseIndexDefinition(definition);
    const index = await this.#checkNewIndex(table, name, column, ifNotExists);
    if (!index) return;
    const type = record.columns[column]!;
    if (type.type === 'vector' || type.type === 'userDefined' || type.type === 'duration') {
      throw VectorDbError.of('UNSUPPORTED_INDEXING_FOR_DATA_TYPES', { column, type: type.type, reason: type.type === 'vector' ? ': use createVectorIndex' : '' });
    }
    const collection = type.type === 'list' || type.type === 'set' || type.type === 'map';
    if (!collection && target !== undefined) throw VectorDbError.of('UNSUPPORTED_INDEXING_FOR_DATA_TYPES', { column, type: type.type, reason: ` on its ${target}: only maps have keys and entries, and lists and sets values` });
    if (type.type !== 'map' && (target === 'keys' || target === 'entries')) throw VectorDbError.of('UNSUPPORTED_INDEXING_FOR_DATA_TYPES', { column, type: type.type, reason: ` on its ${target}: only maps have keys and entries` });
    const indexed = collection ? (target ?? (type.type === 'map' ? 'entries' : 'values')) : undefined;
    // As upstream: text options analyze one value, which a map entry (key and value) is not; `{}` is no options.
    if (indexed === 'entries' && options !== undefined && Object.keys(options).length > 0) {
      throw VectorDbError.of('CANNOT_ANALYZE_ENTRIES_ON_MAP_COLUMNS', { targetColumn: column, options: JSON.stringify(options) });
    }
    const described = describeIndexOptions(type, indexed ?? 'value', options, column);
    const created: TableIndex = { name: index, column, kind: 'regular', ...(indexed ? { target: indexed } : {}), ...described };
    await this.#saveTable(table, { ...record, indexes: [...record.indexes, created] }, async (store) => {
      await store.clearIndex(created.name); // entries a crashed createIndex of that name left
      await store.fileIndex(created);
    });
  }

  /** createTextIndex on a text or ascii column: a lexical index of its tokens ($match, lexical sort). */
  async createTextIndex(table: Table, name: unknown, definition: unknown, ifNotExists: boolean): Promise<void> {
    const record = table.record;
    const { column, target, options } = parseIndexDefinition(definition);
    const type = record.columns[column];
    if (type !== undefined && (target !== undefined || !['text', 'ascii', 'varchar'].includes(type.type))) {
      throw VectorDbError.of('UNSUPPORTED_TEXT_INDEX_FOR_DATA_TYPES', { keyspace: record.keyspace, table: record.name, column, type: type.type });
    }
    textIndexAnalyzer(options?.analyzer);
    const index = await this.#checkNewIndex(table, name, column, ifNotExists);
    if (!index) return;
    const created: TableIndex = { name: index, column, kind: 'text', analyzer: options?.analyzer ?? 'standard' };
    await this.#saveTable(table, { ...record, indexes: [...record.indexes, created] }, async (store) => {
      await store.clearIndex(created.name);
      await store.fileIndex(created);
    });
  }

  /** createVectorIndex on a vector column (metric and source model as the Data API reads them: source-models.ts). */
  async createVectorIndex(table: Table, name: unknown, definition: unknown, ifNotExists: boolean): Promise<void> {
    const record = table.record;
    const { column, options } = parseIndexDefinition(definition);
    const index = await this.#checkNewIndex(table, name, column, ifNotExists);
    if (!index) return;
    const type = record.columns[column]!;
    if (type.type !== 'vector') throw VectorDbError.of('UNSUPPORTED_VECTOR_INDEX_FOR_DATA_TYPES', { column, type: type.type });
    const { metric, sourceModel } = decideIndexMetric(options?.metric, options?.sourceModel);
    if (record.indexes.some((i) => i.kind === 'vector' && i.column === column)) throw VectorDbError.of('CANNOT_ADD_EXISTING_INDEX', { index: `${index} (column ${column} already has a vector index)`, keyspace: record.keyspace });
    const { number, op } = this.#host.allocate();
    await this.#kv.batch([op]); // the number is taken before any vector record is written under it
    const created: TableIndex = { name: index, column, kind: 'vector', metric, sourceModel, vid: number };
    await this.#saveTable(table, { ...record, indexes: [...record.indexes, created] }, () => table.fileVectorIndex(created));
  }

  /** The new index's name, or undefined when it exists and ifNotExists. */
  async #checkNewIndex(table: Table, name: unknown, column: string, ifNotExists: boolean): Promise<string | undefined> {
    const record = table.record;
    if (!isValidSchemaName(name, this.#settings.limits)) throw VectorDbError.of('UNSUPPORTED_SCHEMA_NAME', { kind: 'Index', name: describeValue(name), max: this.#settings.limits.maxNameLength });
    if (record.columns[column] === undefined) {
      throw VectorDbError.of('UNKNOWN_INDEX_COLUMN', { column, keyspace: record.keyspace, table: record.name, allColumns: Object.keys(record.columns).join(', ') });
    }
    if (this.#indexOwner(record.keyspace, name)) {
      if (ifNotExists) return undefined;
      throw VectorDbError.of('CANNOT_ADD_EXISTING_INDEX', { index: name, keyspace: record.keyspace });
    }
    return name;
  }

  /** dropIndex (keyspace level: index names are unique in a keyspace). */
  async dropIndex(keyspace: string, name: string, ifExists: boolean): Promise<void> {
    const table = this.#indexOwner(keyspace, name);
    if (!table) {
      if (ifExists) return;
      throw VectorDbError.of('CANNOT_DROP_UNKNOWN_INDEX', { unknownIndex: name });
    }
    const record = table.record;
    const index = record.indexes.find((i) => i.name === name)!;
    // The record goes first: after a crash the leftover entries have no index naming them.
    await this.#saveTable(table, { ...record, indexes: record.indexes.filter((i) => i !== index) });
    await table.clearIndex(name);
    if (index.vid !== undefined) {
      await table.closeVectorIndex(name);
      await this.#dropVectorRecords(index.vid);
    }
  }

  // ---- user-defined types -------------------------------------------------------------------

  listTypes(keyspace: string): TypeRecord[] {
    return [...(this.#types.get(keyspace)?.values() ?? [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async createType(keyspace: string, name: unknown, definition: unknown, ifNotExists: boolean): Promise<void> {
    if (!isValidSchemaName(name, this.#settings.limits)) throw VectorDbError.of('UNSUPPORTED_SCHEMA_NAME', { kind: 'Type', name: describeValue(name), max: this.#settings.limits.maxNameLength });
    if (this.#types.get(keyspace)?.has(name)) {
      if (ifNotExists) return;
      throw VectorDbError.of('CANNOT_ADD_EXISTING_TYPE', { type: name, keyspace });
    }
    const raw = isObject(definition) && isObject(definition.fields) ? definition.fields : undefined;
    if (!raw || Object.keys(raw).length === 0) throw VectorDbError.of('MISSING_FIELDS_FOR_TYPE_CREATION', { type: name });
    await this.#saveType({ keyspace, name, fields: this.#parseFields(keyspace, name, raw) });
  }

  #parseFields(keyspace: string, type: string, raw: JsonObject): Record<string, ColumnType> {
    const fields: Record<string, ColumnType> = {};
    for (const [field, spec] of Object.entries(raw)) {
      const parsed = parseColumnType(field, spec, { keyspace, limits: this.#settings.limits, types: this.typeLookup(keyspace) }, true);
      if (parsed.type === 'userDefined') throw VectorDbError.of('UNSUPPORTED_TYPE_FIELDS', { type, field, reason: 'cannot be a user-defined type: fields are primitive types' });
      fields[field] = parsed;
    }
    return fields;
  }

  async #saveType(record: TypeRecord): Promise<void> {
    await this.#kv.batch([{ type: 'put', key: keys.typeKey(record.keyspace, record.name), value: JSON.stringify(record) }]);
    this.#typesOf(record.keyspace).set(record.name, record);
  }

  /** alterType: add fields and rename fields (stored values keep their old field names under a rename map). */
  async alterType(keyspace: string, name: string, add: unknown, rename: unknown): Promise<void> {
    const record = this.#types.get(keyspace)?.get(name);
    if (!record) throw VectorDbError.of('UNKNOWN_USER_DEFINED_TYPE', { column: '(alterType)', type: name, keyspace });
    if (add === undefined && rename === undefined) throw VectorDbError.of('MISSING_ALTER_TYPE_OPERATIONS');
    const fields: Record<string, ColumnType> = { ...record.fields };
    if (add !== undefined) {
      const raw = isObject(add) && isObject(add.fields) ? add.fields : {};
      const existing = Object.keys(raw).filter((f) => fields[f] !== undefined);
      if (existing.length > 0) throw VectorDbError.of('CANNOT_ADD_EXISTING_FIELD', { type: name, fields: existing.join(', ') });
      Object.assign(fields, this.#parseFields(keyspace, name, raw));
    }
    if (rename !== undefined) {
      const raw = isObject(rename) && isObject(rename.fields) ? rename.fields : {};
      const unknown = Object.keys(raw).filter((f) => fields[f] === undefined);
      if (unknown.length > 0) throw VectorDbError.of('CANNOT_RENAME_UNKNOWN_TYPE_FIELD', { type: name, fields: unknown.join(', ') });
      if (this.listTables(keyspace).some((t) => usesType(t.record, name))) {
        // Renaming would leave stored values under the old names: only unused types are renamed here.
        throw VectorDbError.of('CANNOT_DROP_TYPE_USED_BY_TABLE', { type: name, tables: this.listTables(keyspace).filter((t) => usesType(t.record, name)).map((t) => t.record.name).join(', ') });
      }
      for (const [from, to] of Object.entries(raw)) {
        if (typeof to !== 'string') throw VectorDbError.of('UNSUPPORTED_TYPE_FIELDS', { type: name, field: from, reason: 'must be renamed to a string' });
        fields[to] = fields[from]!;
        delete fields[from];
      }
    }
    await this.#saveType({ ...record, fields });
  }

  async dropType(keyspace: string, name: string, ifExists: boolean): Promise<void> {
    if (!this.#types.get(keyspace)?.has(name)) {
      if (ifExists) return;
      throw VectorDbError.of('CANNOT_DROP_UNKNOWN_TYPE', { unknownType: name });
    }
    const users = this.listTables(keyspace).filter((t) => usesType(t.record, name));
    if (users.length > 0) throw VectorDbError.of('CANNOT_DROP_TYPE_USED_BY_TABLE', { type: name, tables: users.map((t) => t.record.name).join(', ') });
    await this.#kv.batch([{ type: 'del', key: keys.typeKey(keyspace, name) }]);
    this.#types.get(keyspace)?.delete(name);
  }

  // ---- lifecycle ----------------------------------------------------------------------------

  /** Drops every table and type of a keyspace (dropKeyspace). */
  async dropKeyspace(keyspace: string): Promise<void> {
    for (const name of this.tableNames(keyspace)) await this.dropTable(keyspace, name, true);
    for (const type of this.listTypes(keyspace)) await this.#kv.batch([{ type: 'del', key: keys.typeKey(keyspace, type.name) }]);
    this.#tables.delete(keyspace);
    this.#types.delete(keyspace);
  }

  async close(): Promise<void> {
    for (const tables of this.#tables.values()) for (const table of tables.values()) await table.close();
  }

  #tablesOf(keyspace: string): Map<string, Table> {
    let tables = this.#tables.get(keyspace);
    if (!tables) this.#tables.set(keyspace, (tables = new Map()));
    return tables;
  }

  #typesOf(keyspace: string): Map<string, TypeRecord> {
    let types = this.#types.get(keyspace);
    if (!types) this.#types.set(keyspace, (types = new Map()));
    return types;
  }
}

function usesType(record: TableRecord, name: string): boolean {
  const uses = (type: ColumnType): boolean =>
    type.type === 'userDefined' ? type.udtName === name : type.type === 'map' ? uses(type.keyType) || uses(type.valueType) : type.type === 'list' || type.type === 'set' ? uses(type.valueType) : false;
  return Object.values(record.columns).some(uses);
}

/** An index definition: `{column, options}`, the column a name or `{name: "$keys" | "$values" | "$entries"}`. */
function parseIndexDefinition(raw: unknown): { column: string; target?: 'values' | 'keys' | 'entries'; options?: JsonObject } {
  if (!isObject(raw)) throw VectorDbError.of('COMMAND_FIELD_VALUE_INVALID', { field: 'definition', value: describeValue(raw ?? null), reason: 'must be an Object with column and options' });
  const options = isObject(raw.options) ? raw.options : undefined;
  const column = raw.column;
  if (typeof column === 'string') return { column, ...(options ? { options } : {}) };
  if (isObject(column) && Object.keys(column).length === 1) {
    const [name, target] = Object.entries(column)[0]!;
    if (target === '$keys' || target === '$values' || target === '$entries') return { column: name, target: target.slice(1) as 'keys' | 'values' | 'entries', ...(options ? { options } : {}) };
  }
  throw VectorDbError.of('COMMAND_FIELD_VALUE_INVALID', { field: 'definition.column', value: describeValue(column ?? null), reason: 'must be a column name, or {column: "$keys" | "$values" | "$entries"}' });
}

