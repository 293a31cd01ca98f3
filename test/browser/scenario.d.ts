import type { VectorDB, VectorDBCollection } from '../../src/index.js';

export interface Answers {
  all: number;
  category: string[];
  range: string[];
  combined: string[];
  vector: [string, number][];
  filteredVector: [string, number][];
}
export interface SeededDocument {
  _id: string;
  n: number;
  category: string;
  tags: string[];
  $vector: number[];
}
export declare const LIMITS: { maxInsertManyDocuments: number };
export declare function makeDocuments(count: number, dimension: number, seed?: number): SeededDocument[];
export declare function loadCollection(db: VectorDB, name: string, documents: SeededDocument[]): Promise<VectorDBCollection>;
export declare function queryCollection(collection: VectorDBCollection, query: number[]): Promise<Answers>;
export declare function vectorQps(collection: VectorDBCollection, queries: number[][], rounds: number): Promise<number>;
