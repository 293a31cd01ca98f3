/**
 * The Data Explorer page (served by `vectordb-local serve` at `/`): asks for the token once (kept in
 * sessionStorage), picks the database when serving a home (`serve --home`: from `/v2/databases`, or the one
 * whose own path `/{id}-{region}/` the page was opened at), then lists keyspaces with their collections and
 * tables, shows a collection's definition and stats, pages through its documents under a filter, sort and
 * projection typed as Data API JSON, and finds the documents similar to one. Inserts, edits and deletes, and the
 * search from a pasted vector, are in editor.ts; lexical and hybrid search in search.ts; the tables view in
 * tables.ts; the PCA chart of a sample of the vectors in projection.ts. Every read is a Data API command
 * (api.ts); a refused command shows its code and message.
 */
import { DataApiError, command, listDatabases, token, useDatabase, type DatabaseInfo, type Json, type JsonObject } from './api.js';
import { deleteDocument, installEditor, openEditor, resetEditor } from './editor.js';
import { installSearch, resetSearch } from './search.js';
import { hideTable, installTables, selectTable } from './tables.js';
import { cellContent, columnsOf, el, jsonBox, showStats, statLine, vectorStatLines } from './format.js';
import { SAMPLE, drawChart, project, sampleDocuments } from './projection.js';

interface Selected {
  keyspace: string;
  name: string;
  options: JsonObject;
}

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
let selected: Selected | undefined;
/** The page states that led to the pages shown so far (the first page has none). */
let pageStates: (string | undefined)[] = [];
/** The documents the chart shows (fetched by "Draw chart", coloured again when the field changes). */
let sample: JsonObject[] = [];

function showMessage(text: string, kind: 'error' | 'info' = 'info'): void {
  const box = $('message');
  box.textContent = text;
  box.className = kind;
}

function showError(error: unknown, what: string): void {
  if (error instanceof DataApiError) {
    if (error.code === 'UNAUTHENTICATED_REQUEST' || error.code === 'MISSING_AUTHENTICATION_TOKEN') {
      token.clear();
      askToken();
      showMessage(`The server refused the token (${error.code}: ${error.message}). Enter a valid token.`, 'error');
      return;
    }
    showMessage(`${what}: ${error.code}: ${error.message}`, 'error');
  } else {
    showMessage(`${what}: ${(error as Error)?.message ?? String(error)}`, 'error');
  }
}

function askToken(): void {
  $('token-form').hidden = false;
  $('signed-in').hidden = true;
  $('app').hidden = true;
}

async function start(): Promise<void> {
  if (token.get() === null) {
    askToken();
    showMessage('Enter the token the server printed (or VECTORDB_TOKEN): it is kept for this tab only.');
    return;
  }
  $('token-form').hidden = true;
  $('signed-in').hidden = false;
  $('app').hidden = false;
  showMessage('');
  if (servingHome()) await chooseDatabase();
  else await loadKeyspaces();
}

/** Whether the server serves a home of databases (the server says so in the page's meta). */
function servingHome(): boolean {
  return document.querySelector('meta[name="vectordb-local-serving"]')?.getAttribute('content') === 'home';
}

/** The database whose own path (`/{id}-{region}/`) the page was opened at, if any. */
function databaseOfPath(): DatabaseInfo | undefined {
  const match = /^\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-([a-z0-9-]+)\/?$/i.exec(location.pathname);
  return match === null ? undefined : { id: match[1]!, region: match[2]!, name: match[1]! };
}

/** Serving a home: the database of the page's path, else the home's databases to pick from (the first shown). */
async function chooseDatabase(): Promise<void> {
  const own = databaseOfPath();
  if (own !== undefined) {
    useDatabase(own);
    $('database-box').hidden = true;
    await loadKeyspaces();
    return;
  }
  let databases: DatabaseInfo[];
  try {
    databases = await listDatabases();
  } catch (error) {
    if (error instanceof DataApiError && error.code === 'UNAUTHORIZED_ACCESS') {
      $('keyspaces').replaceChildren();
      showMessage(`This token reaches one database, not the list of the home's databases: open the database's own address, ${location.origin}/{id}-{region}/, as \`serve --home\` printed it.`, 'error');
      return;
    }
    showError(error, 'Listing the databases failed');
    return;
  }
  const select = $<HTMLSelectElement>('database');
  select.replaceChildren(...databases.map((d) => el('option', { value: d.id }, `${d.name} (${d.region})`)));
  $('database-box').hidden = false;
  const pick = async (): Promise<void> => {
    useDatabase(databases.find((d) => d.id === select.value));
    deselect();
    await loadKeyspaces();
  };
  select.onchange = () => void pick();
  if (databases.length === 0) showMessage('The home has no database yet: create one with `vectordb-local db create NAME --home ...`.');
  else await pick();
}

/** Hides the collection and table views. */
function deselect(): void {
  selected = undefined;
  $('collection').hidden = true;
  hideTable();
}

/** Counts the loads of the keyspace tree: a load that a newer one overtook (another database) is dropped. */
let treeLoads = 0;

async function loadKeyspaces(): Promise<void> {
  const load = ++treeLoads;
  $('keyspaces').replaceChildren();
  const tree = el('ul');
  try {
    const keyspaces = ((await command({ findKeyspaces: {} })).status?.keyspaces ?? []) as string[];
    for (const keyspace of keyspaces) {
      const [collections, tables] = await Promise.all([
        command({ findCollections: { options: { explain: true } } }, keyspace).then((e) => (e.status?.collections ?? []) as JsonObject[]),
        command({ listTables: { options: { explain: true } } }, keyspace).then((e) => (e.status?.tables ?? []) as JsonObject[]),
      ]);
      const list = el('ul');
      for (const collection of collections) {
        const name = String(collection.name);
        const button = el('button', { class: 'collection', 'data-keyspace': keyspace, 'data-name': name }, name);
        button.addEventListener('click', () => void selectCollection({ keyspace, name, options: (collection.options ?? {}) as JsonObject }));
        list.append(el('li', {}, button));
      }
      for (const table of tables) {
        const name = String(table.name);
        const button = el('button', { class: 'table', 'data-keyspace': keyspace, 'data-name': name }, name, el('span', { class: 'muted' }, ' (table)'));
        button.addEventListener('click', () => {
          deselect();
          void selectTable({ keyspace, name, definition: (table.definition ?? {}) as JsonObject });
        });
        list.append(el('li', {}, button));
      }
      if (collections.length + tables.length === 0) list.append(el('li', { class: 'empty' }, 'no collections or tables'));
      tree.append(el('li', { class: 'keyspace' }, el('strong', {}, keyspace), list));
    }
    if (load === treeLoads) $('keyspaces').replaceChildren(...tree.children);
  } catch (error) {
    if (load === treeLoads) showError(error, 'Listing keyspaces failed');
  }
}

async function selectCollection(collection: Selected): Promise<void> {
  hideTable();
  selected = collection;
  pageStates = [];
  $('collection').hidden = false;
  $('collection-name').textContent = `${collection.keyspace}.${collection.name}`;
  $('definition').textContent = JSON.stringify(collection.options, null, 2);
  $('similar').hidden = true;
  $('vector-box').hidden = collection.options.vector === undefined;
  $('chart-section').hidden = collection.options.vector === undefined;
  $('chart-box').replaceChildren();
  sample = [];
  resetEditor();
  resetSearch(collection.options);
  showMessage('');
  await Promise.all([loadStats(collection), loadPage(undefined)]);
}

function loadStats(collection: Selected): Promise<void> {
  return showStats($('stats'), { command: 'getCollectionStats', keyspace: collection.keyspace, name: collection.name }, (stats) => [
    statLine('documents', stats.documents),
    statLine('bytes on disk', stats.bytesOnDisk),
    statLine('index entries', stats.indexEntries),
    ...(stats.vector === undefined ? [] : vectorStatLines(stats.vector as JsonObject)),
  ]);
}

async function loadPage(pageState: string | undefined): Promise<void> {
  if (selected === undefined) return;
  const { keyspace, name } = selected;
  try {
    const filter = jsonBox('filter', 'filter') ?? {};
    const sort = jsonBox('sort', 'sort');
    const projection = jsonBox('projection', 'projection') ?? { '*': 1 };
    const options: JsonObject = pageState === undefined ? {} : { pageState };
    const envelope = await command({ find: { filter, projection, ...(sort ? { sort } : {}), options } }, keyspace, name);
    const documents = envelope.data?.documents ?? [];
    renderTable($('documents'), documents, true);
    const next = envelope.data?.nextPageState ?? null;
    ($('next') as HTMLButtonElement).disabled = next === null;
    ($('next') as HTMLButtonElement).dataset.pageState = next ?? '';
    ($('first') as HTMLButtonElement).disabled = pageState === undefined;
    $('page-info').textContent = `page ${pageStates.length + 1}, ${documents.length} document${documents.length === 1 ? '' : 's'}`;
    showMessage('');
  } catch (error) {
    showError(error, 'Find failed');
  }
}

function renderTable(table: HTMLElement, documents: readonly JsonObject[], withActions: boolean): void {
  const columns = columnsOf(documents);
  const head = el('tr', {}, ...columns.map((c) => el('th', {}, c)), ...(withActions ? [el('th', {}, '')] : []));
  const rows = documents.map((document) => {
    const row = el('tr', { 'data-id': JSON.stringify(document._id) }, ...columns.map((c) => el('td', { title: JSON.stringify(document[c]) ?? '' }, cellContent(c, document[c]))));
    if (withActions) {
      const actions = el('td', { class: 'actions' });
      if (selected?.options.vector !== undefined) actions.append(action('find-similar', 'Find similar', () => findSimilar(document)));
      if (document._id !== undefined) actions.append(action('edit', 'Edit', () => openEditor(document._id)), action('delete', 'Delete', () => deleteDocument(document._id!)));
      row.append(actions);
    }
    return row;
  });
  table.replaceChildren(el('thead', {}, head), el('tbody', {}, ...rows));
  if (documents.length === 0) table.append(el('tbody', {}, el('tr', {}, el('td', { class: 'muted' }, 'no documents'))));
}

function action(kind: string, label: string, run: () => Promise<void>): HTMLButtonElement {
  const button = el('button', { class: kind, type: 'button' }, label);
  button.addEventListener('click', () => void run());
  return button;
}

function showResults(title: string, documents: readonly JsonObject[]): void {
  $('similar').hidden = false;
  $('similar-title').textContent = title;
  renderTable($('similar-documents'), documents, false);
}

async function findSimilar(document: JsonObject): Promise<void> {
  if (selected === undefined) return;
  const { keyspace, name } = selected;
  try {
    let vector: Json | undefined = document.$vector;
    if (vector === undefined) {
      const found = await command({ findOne: { filter: { _id: document._id ?? null }, projection: { $vector: 1 } } }, keyspace, name);
      vector = found.data?.document?.$vector;
    }
    if (vector === undefined || vector === null) throw new Error(`document ${JSON.stringify(document._id)} has no $vector`);
    const envelope = await command({ find: { sort: { $vector: vector }, projection: { '*': 1 }, options: { includeSimilarity: true, limit: 10 } } }, keyspace, name);
    showResults(`Similar to ${JSON.stringify(document._id)}`, envelope.data?.documents ?? []);
    showMessage('');
  } catch (error) {
    showError(error, 'Find similar failed');
  }
}

/** Fetches the sample under the table's filter, offers its fields for the colour, and draws it. */
async function drawVectors(): Promise<void> {
  if (selected === undefined) return;
  try {
    sample = await sampleDocuments(selected.keyspace, selected.name, jsonBox('filter', 'filter') ?? {});
    const select = $<HTMLSelectElement>('chart-field');
    const previous = select.value;
    const fields = columnsOf(sample).filter((f) => f !== '_id' && f !== '$vector');
    select.replaceChildren(el('option', { value: '' }, '(none)'), ...fields.map((f) => el('option', { value: f }, f)));
    select.value = fields.includes(previous) ? previous : '';
    redrawChart();
    $('chart-info').textContent = `${sample.length} vector${sample.length === 1 ? '' : 's'} (the first ${SAMPLE} at most under the filter) on their first two principal components`;
  } catch (error) {
    showError(error, 'Drawing the chart failed');
  }
}

function redrawChart(): void {
  const field = $<HTMLSelectElement>('chart-field').value;
  drawChart($('chart-box'), project(sample, field), field);
}

$('chart-draw').addEventListener('click', () => void drawVectors());
$('chart-field').addEventListener('change', () => {
  if (sample.length > 0) redrawChart();
});
$('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $('token-input') as HTMLInputElement;
  if (input.value.trim() === '') return;
  token.set(input.value.trim());
  input.value = '';
  void start();
});
$('forget').addEventListener('click', () => {
  token.clear();
  deselect();
  void start();
});
$('apply').addEventListener('click', () => {
  pageStates = [];
  void loadPage(undefined);
});
$('next').addEventListener('click', () => {
  const state = ($('next') as HTMLButtonElement).dataset.pageState;
  if (!state) return;
  pageStates.push(state);
  void loadPage(state);
});
$('first').addEventListener('click', () => {
  pageStates = [];
  void loadPage(undefined);
});
installEditor({
  current: () => selected,
  reload: () => loadPage(pageStates.at(-1)),
  showError,
  showMessage,
  showResults,
});
installSearch({ current: () => selected, showError, showMessage, showResults });
installTables({ showError, showMessage });
void start();
