// Entry of `site dev`'s build thread: registers tsx (threads do not inherit the loader), then
// loads the pipeline. A fresh thread imports templates and pipeline code anew.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
await import('./buildWorker.ts');
