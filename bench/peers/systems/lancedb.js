/**
 * LanceDB (@lancedb/lancedb): a table of {id, cat, vector} in the data directory, searched with
 * `vectorSearch(...).distanceType('cosine')`, the filter as a `where` (LanceDB prefilters by default).
 * Variants: `flat` (no index: an exact scan), `ivfpq` and `hnswsq` (its vector indexes, with a bitmap
 * index on `cat`), each with its own knob sweep.
 */
const VARIANTS = {
  flat: { index: undefined, settings: [{ label: 'exact scan' }] },
  ivfpq: {
    index: (Index) => Index.ivfPq({ distanceType: 'cosine' }),
    settings: [
      { label: 'nprobes 10, refine 2', nprobes: 10, refineFactor: 2 },
      { label: 'nprobes 20, refine 5', nprobes: 20, refineFactor: 5 },
      { label: 'nprobes 20, refine 10', nprobes: 20, refineFactor: 10 },
      { label: 'nprobes 40, refine 10', nprobes: 40, refineFactor: 10 },
      { label: 'nprobes 80, refine 20', nprobes: 80, refineFactor: 20 },
    ],
  },
  hnswsq: {
    index: (Index) => Index.hnswSq({ distanceType: 'cosine' }),
    settings: [
      { label: 'ef 16', ef: 16 },
      { label: 'ef 32', ef: 32 },
      { label: 'ef 64', ef: 64 },
      { label: 'ef 64, refine 2', ef: 64, refineFactor: 2 },
      { label: 'ef 128, refine 2', ef: 128, refineFactor: 2 },
      { label: 'ef 256, nprobes 4, refine 4', ef: 256, nprobes: 4, refineFactor: 4 },
    ],
  },
};

export function lancedb(variant) {
  const { index: makeIndex, settings } = VARIANTS[variant];
  return async (ctx) => {
    const { connect, Index } = await import('@lancedb/lancedb');
    const { Field, FixedSizeList, Float32, Int32, Schema } = await import('apache-arrow');
    const schema = new Schema([
      new Field('id', new Int32(), false),
      new Field('cat', new Int32(), false),
      new Field('vector', new FixedSizeList(ctx.dim, new Field('item', new Float32(), true)), false),
    ]);
    let connection;
    let table;
    let setting = settings[0];
    const open = async () => {
      connection = await connect(ctx.workDir);
      table = await connection.openTable('peers');
    };
    return {
      settings,
      async load() {
        connection = await connect(ctx.workDir);
        const rows = Array.from({ length: ctx.n }, (_, i) => ({ id: i, cat: ctx.cats[i], vector: Array.from(ctx.row(i)) }));
        table = await connection.createTable('peers', rows, { schema });
        if (makeIndex) {
          await table.createIndex('vector', { config: makeIndex(Index) });
          await table.createIndex('cat', { config: Index.bitmap() });
        }
      },
      apply(next) {
        setting = next;
      },
      async search(vector, cat) {
        let query = table.vectorSearch(vector).distanceType('cosine').select(['id']).limit(ctx.k);
        if (setting.nprobes !== undefined) query = query.nprobes(setting.nprobes);
        if (setting.refineFactor !== undefined) query = query.refineFactor(setting.refineFactor);
        if (setting.ef !== undefined) query = query.ef(setting.ef);
        if (cat !== undefined) query = query.where(`cat = ${cat}`);
        return (await query.toArray()).map((row) => Number(row.id));
      },
      close() {
        table.close();
        connection.close();
      },
      reopen: open,
    };
  };
}
