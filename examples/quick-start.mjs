import { VectorDB } from 'vectordb-local';

// A database is a directory, created on first use (its own: `npm start` serves ./data, and one process holds a directory).
const db = new VectorDB('my-token', './quick-start-data');

// A collection of documents with 3-dimensional vectors compared by cosine similarity.
const products = await db.createCollection('products', 3, 'cosine');
await products.deleteMany({}); // start empty on every run

await products.insertMany([
  { _id: 'lamp', name: 'Desk lamp', category: 'lighting', price: 25, $vector: [0.9, 0.1, 0.1] },
  { _id: 'bulb', name: 'LED bulb', category: 'lighting', price: 5, $vector: [0.8, 0.2, 0.1] },
  { _id: 'chair', name: 'Office chair', category: 'furniture', price: 120, $vector: [0.1, 0.9, 0.2] },
]);

// Filter: every lighting product under 30.
for await (const product of products.find({ filter: { category: 'lighting', price: { $lt: 30 } } })) {
  console.log('lighting:', product.name);
}

// Vector search: the two products most similar to a query vector.
const nearest = await products.findPage({ sort: { $vector: [1, 0.1, 0.1] }, limit: 2, includeSimilarity: true });
for (const product of nearest.results) console.log('similar:', product.name, product.$similarity.toFixed(3));

// Update, count, and close.
await products.updateOne({ _id: 'bulb' }, { $inc: { price: 1 } });
console.log('bulb costs', (await products.findById('bulb')).price);
console.log('documents:', await products.countDocuments({}));
await db.close();
