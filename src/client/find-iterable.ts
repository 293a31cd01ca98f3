/**
 * FindIterable: the lazy result of find and findAll. Iterating fetches one page at a time (each page is one
 * `find` command) until the last page; nothing is fetched before iteration starts.
 */

/**
 * The results of a find; iterate with `for await`, or collect with `toArray()`.
 * @example const all = await products.find({ filter: { color: 'red' } }).toArray();
 */
export class FindIterable<T> implements AsyncIterable<T> {
  readonly #pages: () => AsyncGenerator<T[]>;

  /** Made by VectorDBCollection.find: `pages` yields the results page by page. */
  constructor(pages: () => AsyncGenerator<T[]>) {
    this.#pages = pages;
  }

  /** @example for await (const doc of products.find({ filter: { color: 'red' } })) console.log(doc.name); */
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const page of this.#pages()) yield* page;
  }

  /**
   * Every result of every page.
   * @example const reds = await products.find({ filter: { color: 'red' } }).toArray();
   */
  async toArray(): Promise<T[]> {
    const all: T[] = [];
    for await (const item of this) all.push(item);
    return all;
  }

  /**
   * The same results, each mapped (lazily, page by page).
   * @example const names = await products.findAll().map((doc) => doc.name).toArray();
   */
  map<U>(mapper: (item: T) => U): FindIterable<U> {
    const pages = this.#pages;
    return new FindIterable<U>(async function* mapped() {
      for await (const page of pages()) yield page.map(mapper);
    });
  }
}
