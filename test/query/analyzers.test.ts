/**
 * Text analysis shared by collections and tables (query/analyzers.ts): the named analyzers, the filters in
 * order (lowercase, asciifolding, Lucene's English stop set, the Porter stemmer), refusals, and BM25's arithmetic.
 */
import { describe, expect, it } from 'vitest';
import { ENGLISH_STOP_WORDS, parseAnalyzer, queryTerms, tokenize } from '../../src/query/analyzers.js';
import { bm25Idf, bm25Score, termFrequencies } from '../../src/query/bm25.js';
import { rng } from '../support/random.js';

const refuse = (reason: string) => new Error(reason);
const analyzer = (raw: Parameters<typeof parseAnalyzer>[0]) => parseAnalyzer(raw, refuse);

describe('analyzers', () => {
  it('standard: UAX#29 word breaks and lower case, no stop words', () => {
    expect(tokenize("The Quick-brown fox's 2 jumps, e.g. U.S.A. 3.14!", analyzer('standard'))).toEqual(['the', 'quick', 'brown', "fox's", '2', 'jumps', 'e.g', 'u.s.a', '3.14']);
    expect(tokenize('日本語 Text', analyzer(undefined))).toEqual(['日', '本', '語', 'text']);
    expect(analyzer({})).toEqual(analyzer('standard'));
  });

  it('standard on ASCII text (a fast path) splits exactly as Intl.Segmenter does, on random strings of the characters that matter', () => {
    const segmenter = new Intl.Segmenter('en', { granularity: 'word' });
    const bySegmenter = (text: string) => [...segmenter.segment(text)].filter((s) => s.isWordLike).map((s) => s.segment.toLowerCase());
    const random = rng(29);
    const alphabet = "aZq09_:.',; -\t\n!$\"@#/";
    for (let n = 0; n < 20_000; n++) {
      const text = Array.from({ length: Math.floor(random() * 24) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      expect(tokenize(text, analyzer('standard')), JSON.stringify(text)).toEqual(bySegmenter(text));
    }
    expect(tokenize(`${'x'.repeat(300)} a_`, analyzer('standard'))).toEqual(['x'.repeat(255), 'x'.repeat(45), 'a_']);
  });

  it('simple, whitespace, keyword, stop and lowercase', () => {
    expect(tokenize('Hello, World42 x', analyzer('simple'))).toEqual(['hello', 'world', 'x']);
    expect(tokenize('Hello,  World', analyzer('whitespace'))).toEqual(['Hello,', 'World']);
    expect(tokenize('Hello World', analyzer('keyword'))).toEqual(['Hello World']);
    expect(tokenize('The cat and THE hat', analyzer('stop'))).toEqual(['cat', 'hat']);
    expect(tokenize('Hello World', analyzer('lowercase'))).toEqual(['hello world']);
  });

  it('filters run in the order given: stop, porterstem, asciifolding', () => {
    const custom = analyzer({ tokenizer: { name: 'standard' }, filters: [{ name: 'lowercase' }, { name: 'stop' }, { name: 'porterstem' }, { name: 'asciifolding' }] });
    expect(tokenize('The runners were running to the Café quickly', custom)).toEqual(['runner', 'were', 'run', 'cafe', 'quickli']);
    expect(ENGLISH_STOP_WORDS.size).toBe(33);
    expect(queryTerms('running runs run', custom)).toEqual(['run']);
  });

  it('refuses unknown analyzers, tokenizers, filters and charFilters', () => {
    expect(() => analyzer('english')).toThrow(/offers the analyzers/);
    expect(() => analyzer({ tokenizer: { name: 'ngram' } })).toThrow(/tokenizer must be one of/);
    expect(() => analyzer({ filters: ['synonym'] })).toThrow(/filters may be/);
    expect(() => analyzer({ charFilters: [{ name: 'htmlstrip' }] })).toThrow(/charFilters/);
    expect(() => analyzer({ other: 1 })).toThrow(/only 'tokenizer'/);
    expect(() => analyzer(3)).toThrow(/analyzer name or an object/);
  });
});

describe('bm25', () => {
  it("scores with Lucene's idf, k1 1.2 and b 0.75", () => {
    const stats = { documents: 10, meanLength: 4, documentsWith: new Map([['a', 2], ['b', 5]]) };
    const idfA = Math.log(1 + (10 - 2 + 0.5) / (2 + 0.5));
    expect(bm25Idf(10, 2)).toBeCloseTo(idfA, 12);
    const tf = termFrequencies(['a', 'a', 'c', 'c']);
    const expected = (idfA * 2 * 2.2) / (2 + 1.2 * (1 - 0.75 + 0.75 * (4 / 4)));
    expect(bm25Score(tf, 4, ['a', 'b'], stats)).toBeCloseTo(expected, 12);
  });
});
