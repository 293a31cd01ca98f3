/**
 * The Data Explorer's tables view: a table's columns with their types, its primary key (partition and
 * clustering columns) and its indexes (`listTables` and `listIndexes` with `explain`), its stats (`getTableStats`:
 * rows, bytes on disk, index entries, each vector index's graph), its rows paged under a
 * filter in the Data API's table syntax (a refused one shows the code and message, e.g. UNKNOWN_TABLE_COLUMNS),
 * and, on a table with a vector index, the rows nearest to a pasted vector on the chosen column, with scores.
 */
import { command, type Json, type JsonObject } from './api.js';
import { parsePastedVector } from './editor.js';
import { cellContent, el, jsonBox, shorten, showStats, sparkline, statLine, vectorStatLines } from './format.js';

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

/** A table as `listTables` with `explain` describes it. */
export interface TableInfo {
  readonly keyspace: string;
  readonly name: string;
  readonly definition: JsonObject;
}

interface IndexInfo {
  readonly name: string;
  readonly column: string;
  readonly type: string;
  readonly options: JsonObject;
}

/** What the view needs of the page: how to report. */
export interface TablesHost {
  showError(error: unknown, what: string): void;
  showMessage(text: string): void;
}

let host: TablesHost;
let shown: TableInfo | undefined;
let columns: string[] = [];
let vectorColumns = new Set<string>();
/** The primary key's columns, partition then clustering: a row's `data-key` is their values. */
let keyColumns: string[] = [];
let pageStates: string[] = [];

/** The type of a column as written: `text`, `vector(3)`, `map<text, int>`. */
function typeOf(column: JsonObject): string {
  const type = String(column.type);
  if (type === 'vector') return `vector(${column.dimension})`;
  if (type === 'map') return `map<${column.keyType}, ${column.valueType}>`;
  if (type === 'list' || type === 'set') return `${type}<${column.valueType}>`;
  return type;
}

/** A column's part in the primary key: `partition 1`, `clustering 1 asc`, or empty. */
function keyRoleOf(name: string, primaryKey: JsonObject): string {
  const partition = (primaryKey.partitionBy ?? []) as string[];
  const sort = (primaryKey.partitionSort ?? {}) as Record<string, number>;
  if (partition.includes(name)) return `partition ${partition.indexOf(name) + 1}`;
  const clustering = Object.keys(sort);
  if (clustering.includes(name)) return `clustering ${clustering.indexOf(name) + 1} ${sort[name] === -1 ? 'desc' : 'asc'}`;
  return '';
}

/** Shows a table: its schema and indexes, then its first page of rows. */
export async function selectTable(table: TableInfo): Promise<void> {
  shown = table;
  pageStates = [];
  $('table-view').hidden = false;
  $('table-name').textContent = `${table.keyspace}.${table.name}`;
  $('table-similar-section').hidden = true;
  const definition = table.definition;
  const columnDefs = (definition.columns ?? {}) as Record<string, JsonObject>;
  const primaryKey = (definition.primaryKey ?? {}) as JsonObject;
  columns = Object.keys(columnDefs);
  vectorColumns = new Set(columns.filter((c) => columnDefs[c]!.type === 'vector'));
  keyColumns = [...((primaryKey.partitionBy ?? []) as string[]), ...Object.keys((primaryKey.partitionSort ?? {}) as JsonObject)];
  let indexes: IndexInfo[] = [];
  try {
    const listed = ((await command({ listIndexes: { options: { explain: true } } }, table.keyspace, table.name)).status?.indexes ?? []) as JsonObject[];
    indexes = listed.map((i) => {
      const d = (i.definition ?? {}) as JsonObject;
      return { name: String(i.name), column: typeof d.column === 'string' ? d.column : JSON.stringify(d.column), type: String(i.indexType ?? ''), options: (d.options ?? {}) as JsonObject };
    });
  } catch (error) {
    host.showError(error, 'Listing the indexes failed');
  }
  const indexCell = (column: string) => indexes.filter((i) => i.column === column).map((i) => `${i.name} (${i.type}${Object.keys(i.options).length > 0 ? ` ${shorten(i.options, 40)}` : ''})`).join(', ');
  $('table-schema').replaceChildren(
    el('thead', {}, el('tr', {}, el('th', {}, 'column'), el('th', {}, 'type'), el('th', {}, 'primary key'), el('th', {}, 'indexes'))),
    el('tbody', {}, ...columns.map((c) => el('tr', { 'data-column': c }, el('td', {}, c), el('td', {}, typeOf(columnDefs[c]!)), el('td', {}, keyRoleOf(c, primaryKey)), el('td', {}, indexCell(c))))),
  );
  const searchable = indexes.filter((i) => i.type === 'vector').map((i) => i.column);
  $('table-vector-box').hidden = searchable.length === 0;
  $<HTMLSelectElement>('table-vector-column').replaceChildren(...searchable.map((c) => el('option', { value: c }, c)));
  await Promise.all([loadTableStats(table), loadRows(undefined)]);
}

function loadTableStats(table: TableInfo): Promise<void> {
  return showStats($('table-stats'), { command: 'getTableStats', keyspace: table.keyspace, name: table.name }, (stats) => [
    statLine('rows', stats.rows),
    statLine('bytes on disk', stats.bytesOnDisk),
    statLine('index entries', stats.indexEntries),
    ...Object.entries((stats.vectors ?? {}) as Record<string, JsonObject>).flatMap(([column, vector]) => vectorStatLines(vector, `vectors of ${column}`)),
  ]);
}

/** Hides the tables view (a collection was chosen). */
export function hideTable(): void {
  shown = undefined;
  $('table-view').hidden = true;
}

async function loadRows(pageState: string | undefined): Promise<void> {
  if (shown === undefined) return;
  try {
    const filter = jsonBox('table-filter', 'filter') ?? {};
    const envelope = await command({ find: { filter, options: pageState === undefined ? {} : { pageState } } }, shown.keyspace, shown.name);
    const rows = envelope.data?.documents ?? [];
    renderRows($('table-rows'), rows, columns);
    const next = envelope.data?.nextPageState ?? null;
    $<HTMLButtonElement>('table-next').disabled = next === null;
    $<HTMLButtonElement>('table-next').dataset.pageState = next ?? '';
    $<HTMLButtonElement>('table-first').disabled = pageState === undefined;
    $('table-page-info').textContent = `page ${pageStates.length + 1}, ${rows.length} row${rows.length === 1 ? '' : 's'}`;
    host.showMessage('');
  } catch (error) {
    host.showError(error, 'Find failed');
  }
}

/** Rows as a table with the given columns (vectors as sparklines), `$similarity` last when present. */
function renderRows(table: HTMLElement, rows: readonly JsonObject[], names: readonly string[]): void {
  const all = rows.some((r) => r.$similarity !== undefined) ? [...names, '$similarity'] : [...names];
  const cell = (name: string, value: Json | undefined): Node | string =>
    vectorColumns.has(name) && Array.isArray(value) && value.every((v) => typeof v === 'number') ? sparkline(value as number[]) : cellContent(name, value);
  table.replaceChildren(
    el('thead', {}, el('tr', {}, ...all.map((c) => el('th', {}, c)))),
    el('tbody', {}, ...rows.map((row) => el('tr', { 'data-key': JSON.stringify(keyColumns.map((c) => row[c] ?? null)) }, ...all.map((c) => el('td', { title: JSON.stringify(row[c]) ?? '' }, cell(c, row[c])))))),
  );
  if (rows.length === 0) table.append(el('tbody', {}, el('tr', {}, el('td', { class: 'muted' }, 'no rows'))));
}

async function searchVector(): Promise<void> {
  if (shown === undefined) return;
  try {
    const column = $<HTMLSelectElement>('table-vector-column').value;
    const vector = parsePastedVector($<HTMLTextAreaElement>('table-vector-input').value);
    const filter = jsonBox('table-filter', 'filter') ?? {};
    const envelope = await command({ find: { filter, sort: { [column]: vector }, options: { includeSimilarity: true, limit: 10 } } }, shown.keyspace, shown.name);
    $('table-similar-section').hidden = false;
    $('table-similar-title').textContent = `Nearest on ${column} to the pasted vector (${vector.length} dimensions)`;
    renderRows($('table-similar'), envelope.data?.documents ?? [], columns);
    host.showMessage('');
  } catch (error) {
    host.showError(error, 'Vector search failed');
  }
}

/** Wires the tables view's buttons to the page. */
export function installTables(page: TablesHost): void {
  host = page;
  $('table-apply').addEventListener('click', () => {
    pageStates = [];
    void loadRows(undefined);
  });
  $('table-next').addEventListener('click', () => {
    const state = $<HTMLButtonElement>('table-next').dataset.pageState;
    if (!state) return;
    pageStates.push(state);
    void loadRows(state);
  });
  $('table-first').addEventListener('click', () => {
    pageStates = [];
    void loadRows(undefined);
  });
  $('table-vector-search').addEventListener('click', () => void searchVector());
}
