/**
 * The CommonJS entry (`require('vectordb-local')`). vectordb-local is an ES module: Node versions that can
 * require() one (20.19+, 22.12+) get the same exports as `import`; older ones get an error saying to use import().
 * It loads the same bundled Node entry (dist/node/index.js, scripts/build-node.js) as `import`.
 */
try {
  module.exports = require('./node/index.js');
} catch (error) {
  const code = (error as { code?: unknown }).code;
  if (code !== 'ERR_REQUIRE_ESM' && code !== 'ERR_REQUIRE_ASYNC_MODULE') throw error;
  throw new Error(
    "vectordb-local is an ES module and this Node.js cannot require() it: load it with `const { VectorDB } = await import('vectordb-local')` (works from CommonJS too), or use Node.js 20.19+ / 22.12+",
    { cause: error },
  );
}
