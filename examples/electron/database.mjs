// Electron main process: the Node entry (LevelDB through classic-level), answering the renderers over IPC.
import { VectorDB } from 'vectordb-local';

export function serveDatabaseOverIpc(ipcMain, directory) {
  const db = new VectorDB('main-process', directory); // a LevelDB directory, e.g. under app.getPath('userData')
  ipcMain.handle('vectordb:command', (_event, command, target) => db.command(command, target));
  return db; // close it before the app quits: await db.close()
}
