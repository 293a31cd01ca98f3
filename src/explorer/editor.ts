/**
 * The Data Explorer's writes and its search from a pasted vector: insert a document typed as JSON, edit one
 * (its full JSON, saved with findOneAndReplace on its `_id`), delete one (deleteOne on its `_id`, after a
 * confirm), and the nearest documents to a vector pasted as `[1, 2, 3]`, NumPy's `[1. 2. 3.]` or `1 2 3`.
 * Every write is the Data API command itself: a refused one shows the server's own code and message.
 */
import { command, type Json, type JsonObject } from './api.js';

/** What the editor needs of the page: the collection shown, and how to report and show results. */
export interface EditorHost {
  current(): { keyspace: string; name: string } | undefined;
  /** Reloads the documents table (after a write). */
  reload(): Promise<void>;
  showError(error: unknown, what: string): void;
  showMessage(text: string): void;
  /** Shows documents with their `$similarity` under a title. */
  showResults(title: string, documents: readonly JsonObject[]): void;
}

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

/** The `_id` the editor saves to: undefined when it inserts a new document. */
let editing: { id: Json } | undefined;
let host: EditorHost;

/** Opens the editor: empty for an insert, or with the whole document (`$vector` included) to edit. */
export async function openEditor(id?: Json): Promise<void> {
  const collection = host.current();
  if (collection === undefined) return;
  const box = $<HTMLTextAreaElement>('editor-json');
  if (id === undefined) {
    editing = undefined;
    $('editor-title').textContent = 'New document';
    box.value = '{\n  \n}';
  } else {
    try {
      const found = await command({ findOne: { filter: { _id: id }, projection: { '*': 1 } } }, collection.keyspace, collection.name);
      const document = found.data?.document;
      if (document === undefined || document === null) throw new Error(`document ${JSON.stringify(id)} is gone`);
      editing = { id };
      $('editor-title').textContent = `Edit ${JSON.stringify(id)}`;
      box.value = JSON.stringify(document, null, 2);
    } catch (error) {
      host.showError(error, 'Reading the document failed');
      return;
    }
  }
  $('editor').hidden = false;
  box.focus();
}

function closeEditor(): void {
  editing = undefined;
  $('editor').hidden = true;
}

/** The editor's JSON as a document, or an Error saying why it is not one. */
function editedDocument(): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse($<HTMLTextAreaElement>('editor-json').value);
  } catch (error) {
    throw new Error(`the document is not valid JSON (${(error as Error).message})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('a document must be a JSON object');
  return value as JsonObject;
}

async function save(): Promise<void> {
  const collection = host.current();
  if (collection === undefined) return;
  const what = editing === undefined ? 'Insert failed' : 'Save failed';
  let done: string;
  try {
    const document = editedDocument();
    if (editing === undefined) {
      const inserted = await command({ insertOne: { document } }, collection.keyspace, collection.name);
      done = `Inserted ${JSON.stringify((inserted.status?.insertedIds as Json[] | undefined)?.[0] ?? null)}.`;
    } else {
      const replaced = await command({ findOneAndReplace: { filter: { _id: editing.id }, replacement: document, projection: { _id: 1 } } }, collection.keyspace, collection.name);
      if (replaced.status?.matchedCount === 0) throw new Error(`document ${JSON.stringify(editing.id)} is gone`);
      done = `Saved ${JSON.stringify(editing.id)}.`;
    }
    closeEditor();
    await host.reload();
    host.showMessage(done);
  } catch (error) {
    host.showError(error, what);
  }
}

/** Deletes one document after the user confirms it. */
export async function deleteDocument(id: Json): Promise<void> {
  const collection = host.current();
  if (collection === undefined || !window.confirm(`Delete the document ${JSON.stringify(id)}?`)) return;
  try {
    const deleted = await command({ deleteOne: { filter: { _id: id } } }, collection.keyspace, collection.name);
    await host.reload();
    host.showMessage(deleted.status?.deletedCount === 0 ? `${JSON.stringify(id)} was already gone.` : `Deleted ${JSON.stringify(id)}.`);
  } catch (error) {
    host.showError(error, 'Delete failed');
  }
}

/**
 * A pasted vector's numbers: a JSON array, NumPy's `[1. 2. 3.]` (spaces, line breaks), or numbers separated by
 * commas or spaces. Throws an Error naming the first piece that is not a number.
 */
export function parsePastedVector(text: string): number[] {
  const inner = text.trim().replace(/^\[/, '').replace(/\]$/, '').trim();
  if (inner === '') throw new Error('paste a vector first, as [0.1, 0.2, ...] or 0.1 0.2 ...');
  return inner.split(/[\s,]+/).map((piece) => {
    const value = Number(piece);
    if (piece === '' || !Number.isFinite(value)) throw new Error(`the vector holds ${JSON.stringify(piece)}, which is not a number`);
    return value;
  });
}

async function searchVector(): Promise<void> {
  const collection = host.current();
  if (collection === undefined) return;
  try {
    const vector = parsePastedVector($<HTMLTextAreaElement>('vector-input').value);
    const envelope = await command({ find: { sort: { $vector: vector }, projection: { '*': 1 }, options: { includeSimilarity: true, limit: 10 } } }, collection.keyspace, collection.name);
    host.showResults(`Nearest to the pasted vector (${vector.length} dimensions)`, envelope.data?.documents ?? []);
    host.showMessage('');
  } catch (error) {
    host.showError(error, 'Vector search failed');
  }
}

/** Wires the editor's and the vector search's buttons to the page. */
export function installEditor(page: EditorHost): void {
  host = page;
  $('insert').addEventListener('click', () => void openEditor());
  $('editor-save').addEventListener('click', () => void save());
  $('editor-cancel').addEventListener('click', closeEditor);
  $('vector-search').addEventListener('click', () => void searchVector());
}

/** Hides the editor (another collection was chosen). */
export function resetEditor(): void {
  closeEditor();
}
