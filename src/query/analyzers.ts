/**
 * Text analysis for lexical search, one implementation for collections (`$lexical`) and tables (text indexes):
 * the analyzers the Data API names (Lucene's `standard`, `simple`, `whitespace`, `keyword`, `stop`,
 * `lowercase`) or an object `{tokenizer, filters}` with the filters `lowercase`, `asciifolding`, `stop`
 * (Lucene's English stop set) and `porterstem` (the Porter stemmer of the `stemmer` package, the algorithm of
 * Lucene's PorterStemFilter), applied in the order given. Pure: the caller picks the error code of a refusal.
 */
import { stemmer } from 'stemmer';
import { describeValue } from '../errors/index.js';
import { isObject, type JsonValue } from './json.js';

export type Tokenizer = 'standard' | 'simple' | 'whitespace' | 'keyword';
export type TokenFilter = 'lowercase' | 'asciifolding' | 'stop' | 'porterstem';

export interface Analyzer {
  readonly tokenizer: Tokenizer;
  /** Applied in order to each token; a filter may drop a token (`stop`). */
  readonly filters: readonly TokenFilter[];
}

const NAMED: Readonly<Record<string, Analyzer>> = {
  standard: { tokenizer: 'standard', filters: ['lowercase'] },
  simple: { tokenizer: 'simple', filters: ['lowercase'] },
  whitespace: { tokenizer: 'whitespace', filters: [] },
  keyword: { tokenizer: 'keyword', filters: [] },
  stop: { tokenizer: 'simple', filters: ['lowercase', 'stop'] },
  lowercase: { tokenizer: 'keyword', filters: ['lowercase'] },
};
const TOKENIZERS: readonly Tokenizer[] = ['standard', 'simple', 'whitespace', 'keyword'];
const FILTERS: readonly TokenFilter[] = ['lowercase', 'asciifolding', 'stop', 'porterstem'];

/** Lucene's EnglishAnalyzer.ENGLISH_STOP_WORDS_SET (the `stop` filter's default set). */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(' '),
);

/** The longest token the standard tokenizer emits (Lucene's default maxTokenLength): longer words are split. */
const MAX_TOKEN_LENGTH = 255;

export const DEFAULT_ANALYZER: Analyzer = NAMED.standard!;

/**
 * The analyzer of a definition (a name, or `{tokenizer, filters, charFilters}`; undefined, null and `{}`:
 * `standard`). `refuse(reason)` builds the error of the caller's command for anything else.
 */
export function parseAnalyzer(raw: JsonValue | undefined, refuse: (reason: string) => Error): Analyzer {
  const fail = (reason: string): never => {
    throw refuse(`analyzer ${describeValue(raw ?? null)}: ${reason}`);
  };
  if (raw === undefined || raw === null || (isObject(raw) && Object.keys(raw).length === 0)) return DEFAULT_ANALYZER;
  if (typeof raw === 'string') {
    return NAMED[raw] ?? fail(`vectordb-local offers the analyzers ${Object.keys(NAMED).join(', ')} (language analyzers are not available)`);
  }
  if (!isObject(raw)) return fail('must be an analyzer name or an object with tokenizer and filters');
  const unknown = Object.keys(raw).filter((k) => k !== 'tokenizer' && k !== 'filters' && k !== 'charFilters');
  if (unknown.length > 0) return fail(`only 'tokenizer', 'filters' and 'charFilters' are allowed, not '${unknown[0]}'`);
  const tokenizerName = raw.tokenizer === undefined ? 'standard' : isObject(raw.tokenizer) ? raw.tokenizer.name : raw.tokenizer;
  if (typeof tokenizerName !== 'string' || !(TOKENIZERS as readonly string[]).includes(tokenizerName)) {
    return fail(`tokenizer must be one of ${TOKENIZERS.join(', ')}`);
  }
  const filters = raw.filters ?? [];
  if (!Array.isArray(filters)) return fail('filters must be an array');
  const names = filters.map((f) => (isObject(f) ? f.name : f));
  if (names.some((n) => typeof n !== 'string' || !(FILTERS as readonly string[]).includes(n))) return fail(`filters may be ${FILTERS.join(', ')}`);
  if (raw.charFilters !== undefined && raw.charFilters !== null && !Array.isArray(raw.charFilters)) return fail('charFilters must be an array');
  if (Array.isArray(raw.charFilters) && raw.charFilters.length > 0) return fail('charFilters are not supported');
  return { tokenizer: tokenizerName as Tokenizer, filters: names as TokenFilter[] };
}

const IDEOGRAPH_SPLIT = /[\p{sc=Han}\p{sc=Hiragana}]|[^\p{sc=Han}\p{sc=Hiragana}]+/gu;
const wordSegmenter = new Intl.Segmenter('en', { granularity: 'word' });
const ASCII_ONLY = /^[\x00-\x7f]*$/;
/**
 * UAX#29's word segments of ASCII text, as Intl.Segmenter finds them (several times faster): letters, digits
 * and `_` (ExtendNumLet) joined, `:` `.` `'` kept between two letters (MidLetter, MidNumLet), `,` `;` `.` `'`
 * between two digits (MidNum); every other ASCII character breaks. A lone `_` is not word-like.
 */
const ASCII_WORD = /[A-Za-z0-9_]+(?:(?:(?<=[A-Za-z])[:.'](?=[A-Za-z])|(?<=[0-9])[,;.'](?=[0-9]))[A-Za-z0-9_]+)*/g;

/** Lucene's StandardTokenizer on ASCII text: the word segments, each at most MAX_TOKEN_LENGTH long. */
function splitAscii(text: string): string[] {
  const out: string[] = [];
  for (const [word] of text.matchAll(ASCII_WORD)) {
    if (word === '_') continue;
    if (word.length <= MAX_TOKEN_LENGTH) out.push(word);
    else for (let i = 0; i < word.length; i += MAX_TOKEN_LENGTH) out.push(word.slice(i, i + MAX_TOKEN_LENGTH));
  }
  return out;
}

/** The raw tokens of a tokenizer, in order. */
function split(text: string, tokenizer: Tokenizer): string[] {
  switch (tokenizer) {
    case 'keyword':
      return text.length > 0 ? [text] : [];
    case 'whitespace':
      return text.split(/\s+/u).filter((t) => t.length > 0);
    case 'simple':
      return text.split(/[^\p{L}]+/u).filter((t) => t.length > 0);
    case 'standard': {
      if (ASCII_ONLY.test(text)) return splitAscii(text);
      // UAX#29 word boundaries; only word-like segments (letters, digits, ideographs) are tokens, as Lucene's StandardTokenizer emits.
      const out: string[] = [];
      for (const segment of wordSegmenter.segment(text)) {
        if (!segment.isWordLike) continue;
        // Lucene makes each Han ideograph and Hiragana character a token of its own (ICU joins them into dictionary words).
        for (const word of segment.segment.match(IDEOGRAPH_SPLIT) ?? []) {
          for (let i = 0; i < word.length; i += MAX_TOKEN_LENGTH) out.push(word.slice(i, i + MAX_TOKEN_LENGTH));
        }
      }
      return out;
    }
  }
}

/** The tokens of a text, in order (repeats kept: BM25 counts them). */
export function tokenize(text: string, analyzer: Analyzer): string[] {
  const out: string[] = [];
  next: for (const raw of split(text, analyzer.tokenizer)) {
    let token = raw;
    for (const filter of analyzer.filters) {
      if (filter === 'lowercase') token = token.toLowerCase();
      else if (filter === 'asciifolding') token = asciiFold(token);
      else if (filter === 'stop') {
        if (ENGLISH_STOP_WORDS.has(token)) continue next;
      } else token = stemmer(token);
    }
    if (token.length > 0) out.push(token);
  }
  return out;
}

/** The distinct tokens of a query text, in first-seen order. */
export function queryTerms(text: string, analyzer: Analyzer): string[] {
  return [...new Set(tokenize(text, analyzer))];
}

const LIGATURES: Readonly<Record<string, string>> = { ß: 'ss', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', ø: 'o', Ø: 'O', đ: 'd', Đ: 'D', ł: 'l', Ł: 'L', þ: 'th', Þ: 'TH' };

/** Accents stripped and Latin ligatures spelled out, as Lucene's ASCIIFoldingFilter does for Latin letters. */
export function asciiFold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[ßæÆœŒøØđĐłŁþÞ]/g, (c) => LIGATURES[c]!)
    .normalize('NFC');
}
