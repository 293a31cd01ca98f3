/**
 * Type tests of filters, updates, sorts and projections derived from a collection's document type: loose by
 * default (T's paths keep their types, other paths pass), strict on request (StrictFilter, StrictUpdateFilter,
 * StrictSort, StrictProjection), plain objects for a schemaless collection. Every `@ts-expect-error` fails the
 * type check (test/types/declarations.test.ts runs tsc on this file) if the line it marks stops being an error.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type {
  DocumentFilter,
  DotPaths,
  StrictFilter,
  StrictProjection,
  StrictSort,
  StrictUpdateFilter,
  UpdateFilter,
  VectorDBCollection,
} from '../../src/index.js';

interface Item {
  n: number;
  text: string;
  tags: string[];
  dims: { w: number; h?: number };
  added?: Date;
}

declare const items: VectorDBCollection<Item>;
declare const json: VectorDBCollection;

describe('typed queries', () => {
  it('dotted paths carry their value types', () => {
    expectTypeOf<DotPaths<Item>['dims.w']>().toEqualTypeOf<number>();
    expectTypeOf<DotPaths<Item>['dims.h']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<keyof DotPaths<Item>>().toEqualTypeOf<'n' | 'text' | 'tags' | 'dims' | 'dims.w' | 'dims.h' | 'added'>();
  });

  it('the issue example: updateMany({ n: 1 }, { $set: { nope: true }, $inc: { text: 1 } }) no longer compiles', () => {
    const run = async () => {
      // @ts-expect-error $inc on a string field
      await items.updateMany({ n: 1 }, { $set: { nope: true }, $inc: { text: 1 } });
      await items.updateMany({ n: 1 }, { $set: { nope: true }, $inc: { n: 1 } }); // loose: an undeclared path passes
      // @ts-expect-error strict on request: an undeclared path is refused
      await items.updateMany({ n: 1 }, { $set: { nope: true } } satisfies StrictUpdateFilter<Item>);
      // @ts-expect-error a field compared with a value of another type
      await items.updateOne({ text: 1 }, { $set: { n: 2 } });
      // @ts-expect-error $set of a declared field to a value of another type
      await items.updateOne({ n: 1 }, { $set: { n: 'two' } });
    };
    expectTypeOf(run).toBeFunction();
  });

  it('loose filters: declared paths typed (operators, array elements, nested paths), others accepted', () => {
    const ok: DocumentFilter<Item> = { n: { $gt: 1, $in: [2, 3] }, tags: 'red', 'dims.w': { $lte: 5 }, other: 'x', $or: [{ text: 'a' }, { _id: 'lamp' }] };
    // @ts-expect-error a number field against a string
    const bad: DocumentFilter<Item> = { n: { $gt: 'x' } };
    expectTypeOf(ok).not.toBeAny();
    expectTypeOf(bad).not.toBeAny();
    const read = async () => {
      await items.find({ filter: { n: { $lt: 3 } }, sort: { n: -1 }, projection: { text: 1 } }).toArray();
      // @ts-expect-error find's filter is typed too
      await items.findOne({ filter: { text: { $in: [1] } } });
      await items.countDocuments({ 'dims.h': null });
      // @ts-expect-error countDocuments' filter is typed
      await items.countDocuments({ tags: 5 });
      await items.deleteMany({ added: { $lt: new Date() } });
    };
    expectTypeOf(read).toBeFunction();
  });

  it('strict forms refuse undeclared paths and misplaced operators', () => {
    const filter: StrictFilter<Item> = { n: 1, 'dims.h': { $exists: true }, $and: [{ tags: { $all: ['a', 'b'] } }] };
    // @ts-expect-error undeclared path
    const unknownPath: StrictFilter<Item> = { nope: 1 };
    const update: StrictUpdateFilter<Item> = { $push: { tags: 'x' }, $inc: { 'dims.w': 1 }, $set: { $vector: [1, 2] }, $currentDate: { added: true } };
    // @ts-expect-error $push onto a number
    const pushNumber: StrictUpdateFilter<Item> = { $push: { n: 1 } };
    // @ts-expect-error $currentDate on a string
    const dateOnText: StrictUpdateFilter<Item> = { $currentDate: { text: true } };
    const sort: StrictSort<Item> = { 'dims.w': 1, $vector: [0.1, 0.2] };
    // @ts-expect-error sort values are 1 or -1
    const badSort: StrictSort<Item> = { n: 2 };
    const projection: StrictProjection<Item> = { text: 1, tags: { $slice: 2 }, $vector: 1 };
    // @ts-expect-error undeclared path in a strict projection
    const badProjection: StrictProjection<Item> = { nope: 1 };
    expectTypeOf([filter, unknownPath, update, pushNumber, dateOnText, sort, badSort, projection, badProjection]).toBeArray();
    const run = async () => {
      // The strict forms are accepted wherever the loose ones are.
      await items.updateMany(filter, update, { upsert: true });
      await items.find({ filter, sort, projection }).toArray();
      await items.findOneAndDelete(filter, { sort, projection });
    };
    expectTypeOf(run).toBeFunction();
  });

  it('a schemaless collection takes plain objects, as before', () => {
    expectTypeOf<UpdateFilter<Record<string, unknown>>>().not.toBeNever();
    const run = async () => {
      await json.updateMany({ anything: { $gt: 1 } }, { $set: { whatever: true }, $inc: { count: 1 } });
      await json.find({ filter: { a: 1 }, sort: { b: -1 } }).toArray();
    };
    expectTypeOf(run).toBeFunction();
  });
});
