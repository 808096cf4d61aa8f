import { join } from 'node:path';

/** A connection type's files folder in a state folder (`ConnectionContext.filesFolder`, `ParseContext.filesFolder`). */
export const filesFolderOf = (stateFolder: string, type: string): string => join(stateFolder, 'files', type);
