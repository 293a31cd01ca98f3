/** The browser build's virtual module: hnswlib-wasm's glue chunk, patched (see wasm-loader.browser.ts). */
declare module 'vectordb-local:hnswlib-glue' {
  const factory: unknown;
  export default factory;
  export const version: string | undefined;
  export const applied: string[];
}
