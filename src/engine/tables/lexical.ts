/**
 * Text (lexical) indexes of tables: the analyzers createTextIndex accepts offline (Lucene's `standard`,
 * `simple`, `whitespace`, `keyword`, or an object with one of those tokenizers and `lowercase` / `asciifolding`
 * filters) and the tokens they make. A text index files one entry per distinct token of a row's value; `$match`
 * needs every token of its query (as SAI's analyzed match), and a lexical sort orders the matches by BM25.
 */
import { VectorDbError, describeValue } from '../../errors/index.js';
import { isObject, type JsonObject, type JsonValue } from '../../query/json.js';
import { analyzeText } from './text-analysis.js';

export interface Analyzer {
  readonly tokenizer: 'standard' | 'simple' | 'whitespace' | 'keyword';
  readonly lowercase: boolean;
  readonly asciifolding: boolean;
}

const NAMED: Readonly<Record<string, Analyzer>> = {
  standard: { tokenizer: 'standard', lowercase: true, asciifolding: false },
  simple: { tokenizer: 'simple', lowercase: true, asciifolding: false },
  whitespace: { tokenizer: 'whitespace', lowercase: false, asciifolding: false },
  keyword: { tokenizer: 'keyword', lowercase: false, asciifolding: false },
};
const FILTERS = new Set(['lowercase', 'asciifolding']);

/** The analyzer of createTextIndex's `options.analyzer` (default `standard`); anything needing a language model or stemmer is refused. */
export function parseAnalyzer(raw: JsonValue | undefined): Analyzer {
  const refuse = (reason: string): never => {
    throw VectorDbError.of('INVALID_INDEX_DEFINITION', { reason: `analyzer ${describeValue(raw ?? null)}: ${reason}` });
  };
  if (raw === undefined) return NAMED.standard!;
  if (typeof raw === 'string') return NAMED[raw] ?? refuse(`vectordb-local offers the analyzers ${Object.keys(NAMED).join(', ')} (language analyzers need stemmers it does not ship)`);
  if (!isObject(raw)) return refuse('must be an analyzer name or an object with tokenizer and filters');
  const tokenizerName = isObject(raw.tokenizer) ? raw.tokenizer.name : raw.tokenizer;
  const base = typeof tokenizerName === 'string' ? NAMED[tokenizerName] : undefined;
  if (!base) return refuse(`tokenizer must be one of ${Object.keys(NAMED).join(', ')}`);
  const filters = raw.filters ?? [];
  if (!Array.isArray(filters)) return refuse('filters must be an array');
  const names = filters.map((f) => (isObject(f) ? f.name : f));
  const unknown = names.filter((n) => typeof n !== 'string' || !FILTERS.has(n));
  if (unknown.length > 0) return refuse(`filters may be ${[...FILTERS].join(', ')}`);
  if (Array.isArray(raw.charFilters) && raw.charFilters.length > 0) return refuse('charFilters are not supported');
  return { tokenizer: base.tokenizer, lowercase: names.includes('lowercase'), asciifolding: names.includes('asciifolding') };
}

/** The tokens of a text, in order (repeats kept: BM25 counts them). */
export function tokenize(text: string, analyzer: Analyzer): string[] {
  const raw =
    analyzer.tokenizer === 'keyword'
      ? [text]
      : analyzer.tokenizer === 'whitespace'
        ? text.split(/\s+/u)
        : analyzer.tokenizer === 'simple'
          ? text.split(/[^\p{L}]+/u)
          : (text.match(/[\p{L}\p{M}\p{N}_]+(?:['’.][\p{L}\p{M}\p{N}_]+)*/gu) ?? []);
  const filter = { caseSensitive: !analyzer.lowercase, normalize: false, ascii: analyzer.asciifolding };
  return raw.filter((t) => t.length > 0).map((t) => analyzeText(t, filter));
}

/** What BM25 needs of the whole column: rows holding it, their mean token count, and each query token's row count. */
export interface LexicalStats {
  readonly rows: number;
  readonly meanLength: number;
  readonly rowsWith: ReadonlyMap<string, number>;
}

/** Column statistics for BM25: one pass over the rows (a local database: exact, not sampled). */
export async function lexicalStats(rows: AsyncIterable<{ readonly row: JsonObject }>, column: string, analyzer: Analyzer, rowsWith: ReadonlyMap<string, number>): Promise<LexicalStats> {
  let count = 0;
  let tokens = 0;
  for await (const { row } of rows) {
    const text = row[column];
    if (typeof text !== 'string') continue;
    count += 1;
    tokens += tokenize(text, analyzer).length;
  }
  return { rows: count, meanLength: tokens / Math.max(count, 1), rowsWith };
}

const K1 = 1.2;
const B = 0.75;

/** Okapi BM25 (k1 1.2, b 0.75, Lucene's idf) of a text for the query's distinct tokens. */
export function bm25(text: string, queryTokens: readonly string[], analyzer: Analyzer, stats: LexicalStats): number {
  const tokens = tokenize(text, analyzer);
  const counts = new Map<string, number>();
  for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
  let score = 0;
  for (const q of queryTokens) {
    const tf = counts.get(q) ?? 0;
    if (tf === 0) continue;
    const df = stats.rowsWith.get(q) ?? 0;
    const idf = Math.log(1 + (stats.rows - df + 0.5) / (df + 0.5));
    score += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * tokens.length) / (stats.meanLength || 1)));
  }
  return score;
}
