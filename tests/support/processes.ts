import { spawnSync } from 'node:child_process';

/** The id of a process that has ended (a build stopped midway, for the tests of what it leaves). */
export function endedPid(): number {
  const pid = spawnSync(process.execPath, ['-e', '']).pid;
  if (!pid) throw new Error('no process was started');
  return pid;
}
