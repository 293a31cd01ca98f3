/**
 * The Data Explorer's lexical and hybrid search on a collection. Lexical: `find` sorted by `{"$lexical": text}`
 * (BM25; the Data API gives no score for it, so the page shows each document's rank). Hybrid: `findAndRerank`
 * with `{"$hybrid": {"$vector": v, "$lexical": text}}`, the vector that of a document named by its `_id` or the
 * one pasted in the vector box, or `{"$hybrid": text}` when the collection has a vectorize service, reranked on
 * a chosen field with `includeScores` (rerank score, vector similarity and rank, BM25 rank, RRF).
 */
import { command, type Json, type JsonObject } from './api.js';
import { parsePastedVector } from './editor.js';

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

/** What the search needs of the page: the collection shown, and how to report and show results. */
export interface SearchHost {
  current(): { keyspace: string; name: string; options: JsonObject } | undefined;
  showError(error: unknown, what: string): void;
  showMessage(text: string): void;
  showResults(title: string, documents: readonly JsonObject[]): void;
}

let host: SearchHost;

/** Shows the search box for a collection with lexical search, the hybrid choice when it also has vectors. */
export function resetSearch(options: JsonObject): void {
  const lexical = (options.lexical as JsonObject | undefined)?.enabled === true;
  const vector = options.vector as JsonObject | undefined;
  $('search-box').hidden = !lexical;
  $<HTMLOptionElement>('search-hybrid').disabled = vector === undefined;
  $<HTMLSelectElement>('search-kind').value = 'lexical';
  // With a vectorize service the text is also the vector's source: `$hybrid: text`.
  $('hybrid-source').hidden = true;
  $('hybrid-source').dataset.vectorize = vector?.service === undefined ? '' : 'yes';
}

/** The `_id` typed in the box: JSON when it parses (`"p4"`, `12`), else the text itself. */
function typedId(text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return text;
  }
}

/** The vector of the hybrid read: the named document's, or the pasted one. */
async function hybridVector(keyspace: string, name: string): Promise<{ vector: Json; from: string }> {
  const idText = $<HTMLInputElement>('hybrid-id').value.trim();
  if (idText !== '') {
    const id = typedId(idText);
    const found = await command({ findOne: { filter: { _id: id }, projection: { $vector: 1 } } }, keyspace, name);
    const vector = found.data?.document?.$vector;
    if (vector === undefined || vector === null) throw new Error(`document ${JSON.stringify(id)} ${found.data?.document ? 'has no $vector' : 'is not there'}`);
    return { vector, from: `the vector of ${JSON.stringify(id)}` };
  }
  const pasted = $<HTMLTextAreaElement>('vector-input').value;
  if (pasted.trim() === '') throw new Error('name a document whose vector to use, or paste a vector in the vector search box');
  return { vector: parsePastedVector(pasted), from: 'the pasted vector' };
}

async function search(): Promise<void> {
  const collection = host.current();
  if (collection === undefined) return;
  const { keyspace, name } = collection;
  const text = $<HTMLInputElement>('search-text').value.trim();
  const hybrid = $<HTMLSelectElement>('search-kind').value === 'hybrid';
  try {
    if (text === '') throw new Error('type the words to search for');
    if (!hybrid) {
      const envelope = await command({ find: { sort: { $lexical: text }, projection: { '*': 1 }, options: { limit: 10 } } }, keyspace, name);
      const documents = (envelope.data?.documents ?? []).map((d, i) => ({ ...d, $bm25Rank: i + 1 }));
      host.showResults(`Lexical (BM25) matches for ${JSON.stringify(text)}`, documents);
      host.showMessage(documents.length === 0 ? 'No document holds those words.' : '');
      return;
    }
    const rerankOn = $<HTMLInputElement>('rerank-on').value.trim();
    if (rerankOn === '') throw new Error('name the text field the reranker reads (rerank on)');
    const vectorize = $('hybrid-source').dataset.vectorize === 'yes' && $<HTMLInputElement>('hybrid-id').value.trim() === '' && $<HTMLTextAreaElement>('vector-input').value.trim() === '';
    const source = vectorize ? { vector: null, from: 'the text (vectorize)' } : await hybridVector(keyspace, name);
    const sort = vectorize ? { $hybrid: text } : { $hybrid: { $vector: source.vector, $lexical: text } };
    const envelope = await command({ findAndRerank: { sort, projection: { '*': 1 }, options: { limit: 10, rerankOn, rerankQuery: text, includeScores: true } } }, keyspace, name);
    const responses = (envelope.status?.documentResponses ?? []) as { scores?: JsonObject }[];
    const documents = (envelope.data?.documents ?? []).map((d, i) => {
      const { $vector: similarity, ...scores } = responses[i]?.scores ?? {};
      return { ...d, ...scores, $similarity: similarity ?? null }; // the vector read's score, not the document's $vector
    });
    host.showResults(`Hybrid: ${JSON.stringify(text)} with ${source.from}, reranked on ${rerankOn}`, documents);
    const warnings = (envelope.status?.warnings ?? []) as { message?: string }[];
    host.showMessage(warnings.map((w) => w.message ?? '').join(' '));
  } catch (error) {
    host.showError(error, hybrid ? 'Hybrid search failed' : 'Lexical search failed');
  }
}

/** Wires the search box to the page. */
export function installSearch(page: SearchHost): void {
  host = page;
  $('search-run').addEventListener('click', () => void search());
  $('search-kind').addEventListener('change', () => {
    $('hybrid-source').hidden = $<HTMLSelectElement>('search-kind').value !== 'hybrid';
  });
}
