/**
 * Side files, the browser's twin of side-files.ts (swapped in by the browser build): a page has no
 * database directory, so no store has side files and callers keep their data in the store itself.
 */
import type * as NodeSideFiles from './side-files.js';

export const sideFileDir: typeof NodeSideFiles.sideFileDir = async () => undefined;
export const sideFilePath: typeof NodeSideFiles.sideFilePath = () => undefined;
export const makeDurable: typeof NodeSideFiles.makeDurable = async () => undefined;
export const fileSize: typeof NodeSideFiles.fileSize = async () => undefined;
export const removeFile: typeof NodeSideFiles.removeFile = async () => undefined;
export const removeSideFiles: typeof NodeSideFiles.removeSideFiles = async () => undefined;
export const copySideFiles: typeof NodeSideFiles.copySideFiles = async () => undefined;
export const sideFilePathIn: typeof NodeSideFiles.sideFilePathIn = () => undefined;
export const replaceSideFile: typeof NodeSideFiles.replaceSideFile = async () => undefined;
export const readSideFileBefore: typeof NodeSideFiles.readSideFileBefore = () => undefined;
