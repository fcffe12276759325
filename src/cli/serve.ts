import { access } from 'node:fs/promises';
import path from 'node:path';
import { type ServeOptions, startServer } from '../../server/main';
import { notFoundUrl, pageFile } from '../shared/route';

export async function runServe(options: ServeOptions): Promise<number> {
  try {
    await access(path.join(options.distDir, pageFile(notFoundUrl('en'))));
  } catch {
    console.error(`✗ ${options.distDir} holds no built site: run "site build" first.`);
    return 1;
  }
  await startServer(options);
  return 0;
}
