/**
 * The elements of a JSON array file as text, one at a time, without reading the file whole: a scanner that
 * tracks strings and nesting and cuts the top-level array at its commas. Each element's text then goes to the
 * same parser as an NDJSON line (exact numbers kept); streaming JSON libraries hand out values whose numbers
 * are already doubles, which would lose the digits that lossless parsing keeps.
 */

/** One element of the array: its 1-based position and its text (surrounding whitespace trimmed). */
export interface ArrayElement {
  readonly position: number;
  readonly text: string;
}

const NOT_AN_ARRAY = 'the file is not a JSON array (use --format ndjson for one document per line)';

export async function* jsonArrayElements(chunks: AsyncIterable<string>): AsyncGenerator<ArrayElement> {
  let state = 'before' as 'before' | 'inside' | 'after';
  let depth = 0;
  let inString = false;
  let escaped = false;
  let element = '';
  let position = 0;
  const finish = (): ArrayElement | undefined => {
    const text = element.trim();
    element = '';
    if (text === '') return undefined;
    return { position: ++position, text };
  };
  for await (const chunk of chunks) {
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (state === 'before') {
        if (c === 0xfeff || isSpace(c)) continue;
        if (c !== 0x5b /* [ */) throw new Error(NOT_AN_ARRAY);
        state = 'inside';
        start = i + 1;
      } else if (state === 'after') {
        if (!isSpace(c)) throw new Error('the file is not a JSON array: text after its closing ]');
      } else if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c /* \ */) escaped = true;
        else if (c === 0x22 /* " */) inString = false;
      } else if (c === 0x22) {
        inString = true;
      } else if (c === 0x5b || c === 0x7b /* [ { */) {
        depth++;
      } else if ((c === 0x5d || c === 0x7d) /* ] } */ && depth > 0) {
        depth--;
      } else if (depth === 0 && (c === 0x2c /* , */ || c === 0x5d)) {
        element += chunk.slice(start, i);
        start = i + 1;
        const done = finish();
        if (done !== undefined) yield done;
        else if (c === 0x2c) throw new Error(`the file is not a JSON array: an empty element at position ${position + 1}`);
        if (c === 0x5d) state = 'after';
      }
    }
    if (state === 'inside') element += chunk.slice(start);
  }
  if (state !== 'after') throw new Error(state === 'before' ? NOT_AN_ARRAY : 'the file is not a JSON array: it ends before its closing ]');
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}
