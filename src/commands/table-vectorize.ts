/**
 * Vectorize on tables: a vector column with a `service` takes text wherever it takes a vector. Its services
 * are checked against the registered providers in createTable and alterTable (`add`, `addVectorize`); the text
 * written to such columns by insertOne/insertMany and updateOne's `$set` is embedded (all of a command's texts
 * of a column in one batched call, before any write) and a `{column: "text"}` sort becomes the vector sort of
 * its embedding. Text written to a vector column without a service is refused, as the Data API does, with
 * UNSUPPORTED_VECTORIZE_WHEN_MISSING_VECTORIZE_DEFINITION (before anything is embedded or written), and a text
 * sort on one with CANNOT_VECTORIZE_SORT_WHEN_MISSING_VECTORIZE_DEFINITION.
 */
import { VectorDbError } from '../errors/index.js';
import type { ColumnType } from '../engine/tables/schema.js';
import type { Table } from '../engine/tables/table.js';
import type { VectorizeService } from '../engine/vectors/vectorize-service.js';
import { isObject, type JsonObject, type JsonValue } from '../query/json.js';
import type { CommandContext } from './context.js';
import { embedTexts, serviceDimension, type VectorizeTarget } from './vectorize.js';

type VectorColumn = ColumnType & { type: 'vector' };

/** The table's vector columns that have a service, by name. */
function vectorizeColumns(table: Table): Map<string, VectorizeTarget> {
  const { keyspace, name, columns } = table.record;
  const found = new Map<string, VectorizeTarget>();
  for (const [column, type] of Object.entries(columns)) {
    if (type.type === 'vector' && type.service) found.set(column, { label: `${keyspace}.${name}.${column}`, service: type.service, dimension: type.dimension });
  }
  return found;
}

const refuseFor = (column: string) => (message: string) => VectorDbError.of('INVALID_VECTORIZE_FIELD_CONFIGURATION', { field: column, message });

/** createTable's `definition.columns` / alterTable add's `columns` with each service checked and its dimension filled in. */
export async function resolveColumnServices(ctx: CommandContext, label: string, columns: JsonValue | undefined): Promise<JsonValue | undefined> {
  if (!isObject(columns)) return columns;
  const resolved: JsonObject = { ...columns };
  for (const [column, spec] of Object.entries(columns)) {
    if (!isObject(spec) || spec.type !== 'vector' || !isObject(spec.service) || typeof spec.service.provider !== 'string') continue;
    const dimension = await serviceDimension(ctx, `${label}.${column}`, spec.service as unknown as VectorizeService, spec.dimension, refuseFor(column));
    resolved[column] = { ...spec, dimension };
  }
  return resolved;
}

/** alterTable's operation with its services checked (`add` columns, `addVectorize` against the columns' dimensions). */
export async function resolveAlterServices(ctx: CommandContext, table: Table, operation: JsonValue | undefined): Promise<JsonValue | undefined> {
  if (!isObject(operation)) return operation;
  const label = `${table.record.keyspace}.${table.record.name}`;
  const add = operation.add;
  if (isObject(add) && isObject(add.columns)) return { add: { ...add, columns: (await resolveColumnServices(ctx, label, add.columns))! } };
  const addVectorize = operation.addVectorize;
  if (isObject(addVectorize) && isObject(addVectorize.columns)) {
    for (const [column, service] of Object.entries(addVectorize.columns)) {
      const type = table.record.columns[column];
      if (type?.type !== 'vector' || !isObject(service) || typeof service.provider !== 'string') continue; // the engine's errors
      await serviceDimension(ctx, `${label}.${column}`, service as unknown as VectorizeService, (type as VectorColumn).dimension, refuseFor(column));
    }
  }
  return operation;
}

/**
 * The refusal of text given to vector columns without a service (`invalid`): UNSUPPORTED_VECTORIZE_WHEN_MISSING_VECTORIZE_DEFINITION
 * for rows written, CANNOT_VECTORIZE_SORT_WHEN_MISSING_VECTORIZE_DEFINITION for a sort, as the Data API answers.
 */
function missingVectorizeDefinition(
  code: 'UNSUPPORTED_VECTORIZE_WHEN_MISSING_VECTORIZE_DEFINITION' | 'CANNOT_VECTORIZE_SORT_WHEN_MISSING_VECTORIZE_DEFINITION',
  table: Table,
  targets: ReadonlyMap<string, VectorizeTarget>,
  invalid: readonly string[],
): VectorDbError {
  const { keyspace, name } = table.record;
  const valid = [...targets.keys()].map((column) => `${column}(vector)`).join(', ') || '[None]';
  return VectorDbError.of(code, { keyspace, table: name, validVectorizeColumns: valid, invalidVectorizeColumns: invalid.join(', ') });
}

/** Refuses rows that give text to a vector column that has no service. */
function refuseTextWithoutService(table: Table, targets: ReadonlyMap<string, VectorizeTarget>, rows: readonly JsonValue[]): void {
  const { columns } = table.record;
  const without = Object.keys(columns).filter((column) => columns[column]!.type === 'vector' && !targets.has(column) && rows.some((row) => isObject(row) && typeof row[column] === 'string'));
  if (without.length > 0) throw missingVectorizeDefinition('UNSUPPORTED_VECTORIZE_WHEN_MISSING_VECTORIZE_DEFINITION', table, targets, without);
}

/**
 * Rows (insertOne/insertMany documents, or an update's `$set`) with the text of vectorize columns replaced by
 * its embedding (blank text by null). Rows are copied, never changed.
 */
export async function vectorizeRows(ctx: CommandContext, table: Table, rows: readonly JsonValue[]): Promise<JsonValue[]> {
  const targets = vectorizeColumns(table);
  refuseTextWithoutService(table, targets, rows);
  if (targets.size === 0) return [...rows];
  const copies = rows.map((row) => (isObject(row) && [...targets.keys()].some((c) => typeof row[c] === 'string') ? { ...row } : row));
  for (const [column, target] of targets) {
    const waiting = copies.filter((row): row is JsonObject => isObject(row) && typeof row[column] === 'string');
    for (const row of waiting) if ((row[column] as string).trim() === '') row[column] = null;
    const texts = waiting.filter((row) => row[column] !== null);
    if (texts.length === 0) continue;
    const vectors = await embedTexts(ctx, target, texts.map((row) => row[column] as string), 'index');
    texts.forEach((row, i) => (row[column] = vectors[i]!));
  }
  return copies;
}

/** An update clause whose `$set` text for vectorize columns is embedded. */
export async function vectorizeTableUpdate(ctx: CommandContext, table: Table, update: JsonValue | undefined): Promise<JsonValue | undefined> {
  if (!isObject(update) || !isObject(update.$set)) return update;
  const [$set] = await vectorizeRows(ctx, table, [update.$set]);
  return { ...update, $set: $set! };
}

/** A `{column: "text"}` sort on a vectorize column as the vector sort of the text's embedding; any other as it is. */
export async function vectorizeRowSort(ctx: CommandContext, table: Table, raw: JsonValue | undefined): Promise<JsonValue | undefined> {
  if (!isObject(raw) || Object.keys(raw).length !== 1) return raw;
  const [column, text] = Object.entries(raw)[0]!;
  if (typeof text !== 'string') return raw;
  const targets = vectorizeColumns(table);
  const target = targets.get(column);
  if (target === undefined) {
    if (table.record.columns[column]?.type === 'vector') throw missingVectorizeDefinition('CANNOT_VECTORIZE_SORT_WHEN_MISSING_VECTORIZE_DEFINITION', table, targets, [column]);
    return raw;
  }
  if (text.trim() === '') throw VectorDbError.of('SORT_CLAUSE_INVALID', { reason: `vectorize sort on '${column}' needs a non-blank String` });
  const [vector] = await embedTexts(ctx, target, [text], 'search');
  return { [column]: vector! };
}
