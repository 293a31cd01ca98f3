/**
 * The JSON array scanner of `import` (cli/json-array-stream.ts): elements come out whole, with their positions,
 * wherever the file's chunks are cut (inside strings, escapes, nested values), and a file that is not one
 * JSON array is refused with the reason.
 */
import { describe, expect, it } from 'vitest';
import { jsonArrayElements } from '../../src/cli/json-array-stream.js';

async function elements(text: string, chunkSize: number): Promise<string[]> {
  async function* chunks(): AsyncGenerator<string> {
    for (let i = 0; i < text.length; i += chunkSize) yield text.slice(i, i + chunkSize);
  }
  const out: string[] = [];
  for await (const { position, text: element } of jsonArrayElements(chunks())) {
    expect(position).toBe(out.length + 1);
    out.push(element);
  }
  return out;
}

const AWKWARD = [
  '{"a": "comma, ] and } in a string", "b": [1, [2, {"c": "\\"quoted\\" \\\\"}]]}',
  '{"big": 12321321321312312321312312321}',
  '"a string element"',
  '[]',
  '{}',
  '-1.5e3',
  'null',
];

describe('JSON array elements', () => {
  it.each([1, 2, 3, 7, 64, 10_000])('cut every %i characters, the elements come out whole and in order', async (size) => {
    const file = `\uFEFF  [\n  ${AWKWARD.join(',\n  ')}\n]\n`;
    expect(await elements(file, size)).toEqual(AWKWARD);
    for (const element of AWKWARD.filter((e) => !e.includes('12321'))) expect(() => JSON.parse(element) as unknown).not.toThrow();
  });

  it('an empty array has no elements', async () => {
    expect(await elements(' [ ] ', 1)).toEqual([]);
  });

  it.each([
    ['{"not": "an array"}', /not a JSON array \(use --format ndjson/],
    ['', /not a JSON array \(use --format ndjson/],
    ['[{"a": 1}, {"b": 2}', /ends before its closing \]/],
    ['[{"a": 1},, {"b": 2}]', /an empty element at position 2/],
    ['[{"a": 1}] [', /text after its closing \]/],
  ])('refuses %j', async (file, message) => {
    await expect(elements(file, 3)).rejects.toThrow(message);
  });
});
