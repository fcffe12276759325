// Entry of a markdown-compiling worker thread. Workers do not inherit the main thread's
// TypeScript loader, so each registers tsx itself before loading the compiler.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
await import('./compileWorker.ts');
