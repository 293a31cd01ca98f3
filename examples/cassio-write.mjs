import { MetadataVectorRecord, VectorDB } from 'vectordb-local';

// A CassIO metadata_vector table (row_id, body_blob, attributes_blob, metadata_s, vector), created if missing.
const db = new VectorDB('my-token', './data');
const store = await db.metadataVectorTable('vector_store', 3);
await store.clear(); // start empty on every run

await store.put(new MetadataVectorRecord({ rowId: 'lamp', vector: [0.9, 0.1, 0.1], body: 'Desk lamp', metadata: { category: 'lighting' } }));
await store.put(new MetadataVectorRecord({ rowId: 'mug', vector: [0.1, 0.9, 0.1], body: 'Coffee mug', metadata: { category: 'kitchen' } }));

const [best] = await store.similaritySearch({ embeddings: [1, 0, 0], recordCount: 1, metaData: { category: 'lighting' } });
console.log(`nearest: ${best.embedded.body} ${best.similarity.toFixed(3)}`);
await db.close();
