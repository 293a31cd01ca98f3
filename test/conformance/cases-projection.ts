/**
 * Projection conformance cases (data-api-protocol.md 6): default projection, `*`, inclusion vs exclusion,
 * `_id` / `$vector` toggles, dotted and nested forms, paths through arrays, `$slice`, and the errors.
 */
import type { JsonObject, JsonValue } from '../../src/index.js';
import { DOC_A, DOC_G, UUID2, type FixtureName } from './fixtures.js';
import type { ConformanceCase, ExpectedObject } from './types.js';

function without(doc: JsonObject, ...keys: string[]): JsonObject {
  return Object.fromEntries(Object.entries(doc).filter(([k]) => !keys.includes(k)));
}

function withField(doc: JsonObject, key: string, value: JsonValue): JsonObject {
  return Object.fromEntries(Object.entries(doc).map(([k, v]) => [k, k === key ? value : v]));
}

function project(name: string, id: JsonValue, projection: JsonValue | undefined, document: ExpectedObject, setup: FixtureName = 'shapes'): ConformanceCase {
  const findOne: JsonObject = { filter: { _id: id } };
  if (projection !== undefined) findOne.projection = projection;
  return { name, section: '6', setup, command: { findOne }, expect: { document } };
}

/** The two nearest of the `vectors` fixture to [1, 0, 0, 0] (v1 at distance 0, then v0 at 1), projected. */
function nearest(name: string, projection: JsonObject, documents: ExpectedObject[], includeSimilarity = false): ConformanceCase {
  const options: JsonObject = { limit: 2 };
  if (includeSimilarity) options.includeSimilarity = true;
  return { name, section: '6', setup: 'vectors', command: { find: { sort: { $vector: [1, 0, 0, 0] }, projection, options } }, expect: { documents } };
}

function reject(name: string, projection: JsonValue, errorCode: string, command: 'find' | 'findOne' = 'findOne'): ConformanceCase {
  return { name, section: '6', setup: 'shapes', command: { [command]: { filter: { _id: 'a' }, projection } }, expect: { errorCode } };
}

export const projectionCases: ConformanceCase[] = [
  // ---- default and wildcard ---------------------------------------------------------------------------
  project('no projection returns the stored document, _id first, key order kept', 'a', undefined, DOC_A),
  project('empty projection is the default projection', 'a', {}, DOC_A),
  project('"*": 1 returns everything', 'a', { '*': 1 }, DOC_A),
  project('"*": 0 returns an empty document', 'a', { '*': 0 }, {}),

  // ---- inclusion ----------------------------------------------------------------------------------------
  project('inclusion keeps _id', 'a', { name: 1 }, { _id: 'a', name: 'Ann' }),
  project('inclusion with _id: 0', 'a', { name: 1, _id: 0 }, { name: 'Ann' }),
  project('boolean true includes', 'a', { name: true, age: true }, { _id: 'a', name: 'Ann', age: 30 }),
  project('inclusion keeps document order, not projection order', 'a', { age: 1, name: 1 }, { _id: 'a', name: 'Ann', age: 30 }),
  project('any non-zero number includes', 'a', { name: 2 }, { _id: 'a', name: 'Ann' }),
  project('inclusion of a missing field', 'a', { zzz: 1 }, { _id: 'a' }),
  project('_id: 1 alone is not an inclusion: whole document', 'a', { _id: 1 }, DOC_A),
  project('dotted inclusion', 'a', { 'address.city': 1 }, { _id: 'a', address: { city: 'Paris' } }),
  project('nested-object inclusion equals the dotted form', 'a', { address: { city: 1 } }, { _id: 'a', address: { city: 'Paris' } }),
  project('deep dotted inclusion', 'g', { 'address.geo.lat': 1 }, { _id: 'g', address: { geo: { lat: 48.8 } } }),
  project('inclusion of a missing sub-path keeps the parent object', 'c', { 'address.city': 1 }, { _id: 'c', address: {} }),
  project('inclusion through an array of objects applies to every element', 'a', { 'items.sku': 1 }, { _id: 'a', items: [{ sku: 'x1' }, { sku: 'x2' }] }),
  project('numeric segments name object keys, not array indexes', 'a', { 'items.0': 1 }, { _id: 'a', items: [{}, {}] }),
  project('EJSON values are included whole', 'a', { when: 1, ref: 1 }, { _id: 'a', when: { $date: 1700000000000 }, ref: { $uuid: UUID2 } }),

  // ---- exclusion ----------------------------------------------------------------------------------------
  project('exclusion', 'a', { name: 0 }, without(DOC_A, 'name')),
  project('exclusion with boolean false and _id: 0', 'a', { name: false, _id: 0 }, without(DOC_A, 'name', '_id')),
  project('_id: 0 alone', 'a', { _id: 0 }, without(DOC_A, '_id')),
  project('dotted exclusion', 'a', { 'address.zip': 0 }, withField(DOC_A, 'address', { city: 'Paris' })),
  project('exclusion through an array of objects', 'a', { 'items.qty': 0 }, withField(DOC_A, 'items', [{ sku: 'x1' }, { sku: 'x2' }])),

  // ---- $slice --------------------------------------------------------------------------------------------
  project('$slice n keeps the first n, other fields stay', 'a', { tags: { $slice: 1 } }, withField(DOC_A, 'tags', ['red'])),
  project('$slice -n keeps the last n', 'a', { tags: { $slice: -1 } }, withField(DOC_A, 'tags', ['blue'])),
  project('$slice 0 gives an empty array', 'a', { tags: { $slice: 0 } }, withField(DOC_A, 'tags', [])),
  project('$slice [skip, n]', 'g', { tags: { $slice: [1, 1] } }, withField(DOC_G, 'tags', ['red'])),
  project('$slice [negative skip, n]', 'g', { tags: { $slice: [-2, 1] } }, withField(DOC_G, 'tags', ['red'])),
  project('$slice negative skip beyond the start', 'g', { tags: { $slice: [-5, 2] } }, withField(DOC_G, 'tags', ['green', 'red'])),
  project('$slice skip beyond the end', 'g', { tags: { $slice: [5, 2] } }, withField(DOC_G, 'tags', [])),
  project('$slice of an array of objects', 'a', { items: { $slice: -1 } }, withField(DOC_A, 'items', [{ sku: 'x2', qty: 5 }])),
  project('$slice leaves non-arrays unchanged', 'a', { name: { $slice: 1 } }, DOC_A),
  project('$slice inside an inclusion projection', 'a', { name: 1, tags: { $slice: 1 } }, { _id: 'a', name: 'Ann', tags: ['red'] }),
  {
    name: 'find applies the projection to every document',
    section: '6',
    setup: 'shapes',
    command: { find: { filter: { _id: { $in: ['a', 'b'] } }, sort: { name: 1 }, projection: { name: 1, _id: 0 } } },
    expect: { documents: [{ name: 'Ann' }, { name: 'Bob' }] },
  },

  // ---- $vector ------------------------------------------------------------------------------------------
  project('default projection hides $vector', 'v1', undefined, { _id: 'v1', label: 'one' }, 'vectors'),
  project('$vector: 1 alone adds $vector to the whole document', 'v1', { $vector: 1 }, { _id: 'v1', $vector: [1, 0, 0, 0], label: 'one' }, 'vectors'),
  project('"*": 1 includes $vector', 'v1', { '*': 1 }, { _id: 'v1', $vector: [1, 0, 0, 0], label: 'one' }, 'vectors'),
  project('inclusion with $vector', 'v1', { label: 1, $vector: 1 }, { _id: 'v1', $vector: [1, 0, 0, 0], label: 'one' }, 'vectors'),
  project('inclusion without $vector', 'v1', { label: 1 }, { _id: 'v1', label: 'one' }, 'vectors'),
  project('$vector: 0', 'v1', { $vector: 0 }, { _id: 'v1', label: 'one' }, 'vectors'),
  project('$vector: 1 with _id: 0', 'v1', { $vector: 1, _id: 0 }, { $vector: [1, 0, 0, 0], label: 'one' }, 'vectors'),
  // A vector search's hits come from the hit cache's shared bodies: the same projections, the same documents.
  nearest('a vector search with _id: 1 returns whole documents minus $vector', { _id: 1 }, [{ _id: 'v1', label: 'one' }, { _id: 'v0', label: 'zero' }]),
  nearest('a vector search with _id: 0', { _id: 0 }, [{ label: 'one' }, { label: 'zero' }]),
  nearest('a vector search with an inclusion', { label: 1 }, [{ _id: 'v1', label: 'one' }, { _id: 'v0', label: 'zero' }]),
  nearest('a vector search with "*": 0 and $similarity', { '*': 0 }, [{ $similarity: 1 }, { $similarity: 0.5 }], true),

  // ---- errors -------------------------------------------------------------------------------------------
  reject('cannot exclude on an inclusion projection', { name: 1, age: 0 }, 'UNSUPPORTED_PROJECTION_PARAM'),
  reject('cannot include on an exclusion projection', { name: 0, age: 1 }, 'UNSUPPORTED_PROJECTION_PARAM'),
  reject('overlapping paths conflict', { address: 1, 'address.city': 1 }, 'UNSUPPORTED_PROJECTION_PARAM'),
  reject('projection must be an object', ['name'], 'UNSUPPORTED_PROJECTION_DEFINITION'),
  reject('root-level operator', { $slice: 1 }, 'UNSUPPORTED_PROJECTION_PARAM'),
  reject('unknown projection operator', { tags: { $elemMatch: 1 } }, 'UNSUPPORTED_PROJECTION_PARAM'),
  reject('value must be a number, boolean or object', { name: 'yes' }, 'UNSUPPORTED_PROJECTION_PARAM'),
  reject('$slice count must not be negative', { tags: { $slice: [1, -1] } }, 'UNSUPPORTED_PROJECTION_PARAM'),
  reject('$slice needs a number or two numbers', { tags: { $slice: 'x' } }, 'UNSUPPORTED_PROJECTION_PARAM'),
  reject('$slice array needs exactly two numbers', { tags: { $slice: [1] } }, 'UNSUPPORTED_PROJECTION_PARAM'),
  reject('find rejects a mixed projection', { name: 1, tags: 0 }, 'UNSUPPORTED_PROJECTION_PARAM', 'find'),
];
