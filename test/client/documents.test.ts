/**
 * Documents and results as values: JsonDocument and its builder, Document<T> and its builder, their JSON,
 * DocumentResult.fromJson, mutation results and statuses.
 */
import { describe, expect, it } from 'vitest';
import {
  Document,
  DocumentMutationStatus,
  DocumentResult,
  JsonDocument,
  JsonDocumentMutationResult,
} from '../../src/index.js';

describe('JsonDocument', () => {
  it('the builder sets _id first, $vector, attributes; Dates become instants; it is immutable', () => {
    const at = new Date(Date.UTC(2024, 0, 1));
    const base = JsonDocument.builder().put('name', 'lamp');
    const doc = base.vector(new Float32Array([0.5, 0.25])).put('at', at).data({ price: 25, tags: ['a'] }).id('lamp').build();
    expect(doc).toEqual({ _id: 'lamp', name: 'lamp', $vector: [0.5, 0.25], at: { $date: at.getTime() }, price: 25, tags: ['a'] });
    expect(Object.keys(doc)[0]).toBe('_id');
    expect(base.build()).toEqual({ name: 'lamp' });
    expect(JsonDocument.builder().data('{"a": 1}').build()).toEqual({ a: 1 });
    const built = base.build();
    built.name = 'changed';
    expect(base.build()).toEqual({ name: 'lamp' });
  });

  it('of: from a JSON string or an object', () => {
    expect(JsonDocument.of('{"_id": 1, "a": [1]}')).toEqual({ _id: 1, a: [1] });
    expect(JsonDocument.of({ at: new Date(5), skip: undefined })).toEqual({ at: { $date: 5 } });
    expect(() => JsonDocument.of('[1]')).toThrow(TypeError);
    expect(() => JsonDocument.builder().vector('x' as never)).toThrow(TypeError);
  });
});

describe('Document<T>', () => {
  interface Product {
    name: string;
    price: number;
    at?: Date;
  }

  it('holds id, vector and data; toJSON flattens with _id first and $vector', () => {
    const doc = new Document<Product>({ id: 'lamp', vector: [1, 0], data: { name: 'lamp', price: 25, at: new Date(7) } });
    expect(doc.id).toBe('lamp');
    expect(doc.vector).toEqual([1, 0]);
    expect(doc.data.price).toBe(25);
    expect(doc.toJSON()).toEqual({ _id: 'lamp', name: 'lamp', price: 25, at: { $date: 7 }, $vector: [1, 0] });
    expect(Object.keys(doc.toJSON())).toEqual(['_id', 'name', 'price', 'at', '$vector']);
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc.toJSON());
    expect(Object.isFrozen(doc)).toBe(true);
  });

  it('an explicit id or vector wins over the same keys in data; otherwise those are kept', () => {
    expect(Document.of({ _id: 'inner', $vector: [0, 1], a: 1 }, { id: 'outer', vector: [1, 0] }).toJSON()).toEqual({ _id: 'outer', a: 1, $vector: [1, 0] });
    expect(Document.of({ _id: 'inner', $vector: [0, 1], a: 1 }).toJSON()).toEqual({ _id: 'inner', a: 1, $vector: [0, 1] });
  });

  it('withId, withVector, withData return new documents', () => {
    const doc = Document.of<Product>({ name: 'a', price: 1 });
    expect(doc.withId('x').id).toBe('x');
    expect(doc.id).toBeUndefined();
    expect(doc.withVector([1, 2]).vector).toEqual([1, 2]);
    expect(doc.withVector([1, 2]).withVector(undefined).vector).toBeUndefined();
    expect(doc.withData({ other: true }).data).toEqual({ other: true });
  });

  it('the builder', () => {
    const doc = Document.builder<Product>().id('b').vector([0, 1]).data({ name: 'b', price: 2 }).build();
    expect(doc).toBeInstanceOf(Document);
    expect(doc.toJSON()).toEqual({ _id: 'b', name: 'b', price: 2, $vector: [0, 1] });
    expect(() => Document.builder<Product>().id('x').build()).toThrow(TypeError);
    expect(() => new Document(undefined as never)).toThrow(TypeError);
  });
});

describe('results', () => {
  class Product {
    name = '';
    at: Date | undefined;
  }

  it('DocumentResult.fromJson: generic, with a class, with a mapper', () => {
    const json = { _id: 'x', name: 'lamp', at: { $date: 9 }, $vector: [1, 0], $similarity: 0.5 };
    const generic = DocumentResult.fromJson<{ name: string; at: Date }>(json);
    expect(generic).toBeInstanceOf(DocumentResult);
    expect(generic).toMatchObject({ id: 'x', vector: [1, 0], similarity: 0.5 });
    expect(generic.data).toEqual({ name: 'lamp', at: new Date(9) });
    const typed = DocumentResult.fromJson(json, Product);
    expect(typed.data).toBeInstanceOf(Product);
    expect(typed.data.at).toEqual(new Date(9));
    const mapped = DocumentResult.fromJson(json, (j) => String(j.name));
    expect(mapped.data).toBe('lamp');
    expect(Object.isFrozen(typed)).toBe(true);
  });

  it('mutation results expose id, status and document; statuses are the five of the seed', () => {
    const result = new JsonDocumentMutationResult('a', 'CREATED', { _id: 'a', x: 1 });
    expect(result).toEqual({ id: 'a' });
    expect(result.status).toBe('CREATED');
    expect(result.document).toEqual({ _id: 'a', x: 1 });
    expect(Object.values(DocumentMutationStatus)).toEqual(['CREATED', 'UPDATED', 'UNCHANGED', 'ALREADY_EXISTS', 'NOT_PROCESSED']);
  });
});
