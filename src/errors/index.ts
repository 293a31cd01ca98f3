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
