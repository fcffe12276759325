// Entry of the image encoder's child process (see encodeMissing in publish.ts). A child process
// does not inherit the parent's TypeScript loader, so it registers tsx itself first.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
await import('./encoder.ts');
