// Entry of a share-card drawing thread, or of the child process that prepares a build's cards (see
// CardThreads in threads.ts). Neither inherits how the command's TypeScript was loaded: this one
// loads its code through bin/launch.mjs itself.
import { launch } from '../../bin/launch.mjs';

await launch('src/cards/drawWorker.ts');
