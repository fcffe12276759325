// Entry of `site dev`'s build thread. Threads do not inherit how the command's TypeScript was
// loaded: this one loads the pipeline through bin/launch.mjs itself, so a fresh thread (started
// after a template or pipeline edit) runs the code as it is now.
import { launch } from '../../bin/launch.mjs';

// A template's exception is shown in the overlay at its line in the template, found from the stack.
process.setSourceMapsEnabled(true);

await launch('src/dev/buildWorker.ts');
