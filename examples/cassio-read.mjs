import { DataAPIClient } from '@datastax/astra-db-ts';

// The same table over HTTP, read with astra-db-ts's Table (after `vectordb-local serve --data ./data --token my-token`).
const client = new DataAPIClient('my-token', { environment: 'dse' });
const db = client.db(process.env.ENDPOINT ?? 'http://127.0.0.1:8181', { keyspace: 'default_keyspace' });
const store = db.table('vector_store');

const lamp = await store.findOne({ row_id: 'lamp' });
console.log(`${lamp.row_id}: ${lamp.body_blob}, category ${lamp.metadata_s.get('category')}`);

const near = await store.find({}, { sort: { vector: [1, 0, 0] }, limit: 2, includeSimilarity: true }).toArray();
console.log(near.map((row) => `${row.row_id} ${row.$similarity.toFixed(3)}`).join(', '));
await client.close();
