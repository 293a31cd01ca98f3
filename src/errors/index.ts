/**
 * The errors' surface: the one table of error codes (codes.ts) and VectorDbError, which every layer throws
 * and the command layer turns into the Data API's error objects.
 */
export { ERROR_CODES, type ErrorCode, type ErrorCodeSpec, type ErrorFamily, type ErrorScope } from './codes.js';
export {
  VectorDbError,
  isVectorDbError,
  renderTemplate,
  describeValue,
  jsonTypeName,
  type ErrorVars,
  type WireError,
  type VectorDbErrorOptions,
} from './vectordb-error.js';
