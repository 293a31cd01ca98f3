/**
 * `vectordb-local/langchain`: LangChain.js integration (needs `@langchain/core`, an optional peer dependency;
 * the main entry never loads it).
 */
export { VectorDBLocalStore, type VectorDBLocalConnection, type VectorDBLocalDeleteParams, type VectorDBLocalFilter, type VectorDBLocalStoreArgs } from './vector-store.js';
