/**
 * Every shared suite in one call, for a transport's test file (embedded.test.ts, http.test.ts).
 * Each suite takes a DbFactory and never branches on which one it is.
 */
import type { DbFactory } from '../support/factory.js';
import { clientApiSuite } from './client-api.js';
import { collectionsSuite } from './collections.js';
import { commandShapeSuite } from './command-shape.js';
import { countSuite } from './count.js';
import { deleteSuite } from './delete.js';
import { findSuite } from './find.js';
import { findClausesSuite } from './find-clauses.js';
import { insertValidationSuite } from './insert-validation.js';
import { insertSuite } from './insert.js';
import { keyspacesSuite } from './keyspaces.js';
import { lexicalSuite } from './lexical.js';
import { rerankSuite } from './rerank.js';
import { limitPresetsSuite } from './limit-presets.js';
import { updateSuite } from './update.js';
import { tablesSuite } from './tables.js';
import { tableFidelitySuite } from './table-fidelity.js';
import { vectorKnobsSuite } from './vector-knobs.js';
import { vectorQuantizationSuite } from './vector-quantization.js';

export { clientApiSuite, collectionsSuite, commandShapeSuite, countSuite, deleteSuite, findClausesSuite, findSuite, insertSuite, insertValidationSuite, keyspacesSuite, lexicalSuite, limitPresetsSuite, rerankSuite, tableFidelitySuite, tablesSuite, updateSuite, vectorKnobsSuite, vectorQuantizationSuite };

export function allSuites(factory: DbFactory): void {
  keyspacesSuite(factory);
  collectionsSuite(factory);
  insertSuite(factory);
  insertValidationSuite(factory);
  findSuite(factory);
  findClausesSuite(factory);
  updateSuite(factory);
  deleteSuite(factory);
  countSuite(factory);
  commandShapeSuite(factory);
  clientApiSuite(factory);
  limitPresetsSuite(factory);
  tablesSuite(factory);
  tableFidelitySuite(factory);
  vectorKnobsSuite(factory);
  vectorQuantizationSuite(factory);
  lexicalSuite(factory);
  rerankSuite(factory);
}
