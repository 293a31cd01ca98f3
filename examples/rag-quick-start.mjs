import { VectorDBLocalStore } from 'vectordb-local/langchain';
// Any LangChain embeddings (OpenAIEmbeddings, OllamaEmbeddings, ...); this one is deterministic, for trying out.
import { SyntheticEmbeddings } from '@langchain/core/utils/testing';

const store = new VectorDBLocalStore(new SyntheticEmbeddings({ vectorSize: 8 }), {
  db: { token: 'my-token', endpoint: './rag-data' }, // a data directory, or the URL of `vectordb-local serve`
  collectionName: 'notes', // created at the first write, with the embeddings' dimension
});

// Documents with the same ids are replaced, so this runs again unchanged.
await store.addDocuments(
  [
    { pageContent: 'Cats sleep up to sixteen hours a day', metadata: { topic: 'pets', year: 2024 } },
    { pageContent: 'Sourdough needs flour, water and time', metadata: { topic: 'food', year: 2023 } },
    { pageContent: 'Markets fell on Monday', metadata: { topic: 'money', year: 2024 } },
  ],
  { ids: ['cats', 'bread', 'markets'] },
);

// Metadata filters are Data API filters; scores are $similarity (1 is the same direction).
for (const [doc, score] of await store.similaritySearchWithScore('Markets fell on Monday', 2, { year: { $gte: 2024 } })) {
  console.log(doc.id, doc.metadata.topic, score.toFixed(3));
}

// A retriever for a chain: the nearest pet note.
const retriever = store.asRetriever({ k: 1, filter: { topic: 'pets' } });
console.log((await retriever.invoke('Cats sleep up to sixteen hours a day'))[0].pageContent);
await store.close();
