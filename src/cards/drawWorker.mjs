// Entry of a share-card drawing thread (see CardThreads in threads.ts). Threads do not inherit how
// the command's TypeScript was loaded: this one loads its code through bin/launch.mjs itself.
import { launch } from '../../bin/launch.mjs';

await launch('src/cards/drawWorker.ts');
