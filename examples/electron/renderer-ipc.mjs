// Renderer, through the main process: any Data API command, answered by the main process's database.
const { vectordb } = window; // exposed by the preload script

await vectordb.command({ createCollection: { name: 'notes', options: { vector: { dimension: 3, metric: 'cosine' } } } }, { keyspace: 'default_keyspace' });
await vectordb.command({ insertOne: { document: { _id: 'n1', text: 'buy milk', $vector: [0.9, 0.1, 0] } } }, { collection: 'notes' });
const found = await vectordb.command({ find: { sort: { $vector: [1, 0, 0] }, options: { limit: 1, includeSimilarity: true } } }, { collection: 'notes' });
const [best] = found.data.documents;
document.body.textContent = `${best.text} ${best.$similarity.toFixed(3)}`;
