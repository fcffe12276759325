import { setFlagsFromString } from 'node:v8';

/**
 * From now on, for the rest of this process, V8 marks the old generation in steps on the threads
 * that allocate, not on helper threads beside them. For a build that is about to keep every core
 * busy until it ends (a cold one: the markdown on one thread per core, then the render with the
 * pages' compression and the image encoder beside it): there the helpers only take cores from the
 * build's own threads, and marking objects that change meanwhile costs more CPU in all. Not for a
 * build with most of its work found in the cache (a check, an edit's rebuild), whose one busy
 * thread leaves a core to the helpers, nor for a session that builds again (`site dev`). Set once:
 * a process's flags are not set back.
 */
export function markOnAllocatingThreads(): void {
  setFlagsFromString('--no-concurrent-marking');
}
