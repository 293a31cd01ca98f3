// Renderer, on its own: the browser entry (your bundler picks it by the `browser` condition) on IndexedDB.
import { VectorDB } from 'vectordb-local';

const db = new VectorDB('renderer', 'notes'); // the IndexedDB database 'notes' of the app's origin
const notes = await db.createCollection('notes', 3, 'cosine');
await notes.upsertOne({ _id: 'n1', text: 'buy milk', $vector: [0.9, 0.1, 0] });
const [best] = await notes.findVector([1, 0, 0], { limit: 1, includeSimilarity: true });
document.body.textContent = `${best.text} ${best.$similarity.toFixed(3)}`;
await db.close();
