import path from 'node:path';
import { build } from '../build/pipeline';
import { report } from './report';

export async function runBuild(options: { root: string; outDir: string; baseUrl?: string }): Promise<number> {
  if (options.baseUrl !== undefined && !/^https?:\/\/[^/\s]+(\/[^\s]*)?$/.test(options.baseUrl)) {
    console.error(`✗ --base-url must be an absolute http(s) URL, not "${options.baseUrl}"`);
    return 1;
  }
  const result = await build(options);
  report(options.root, result.diagnostics, 'human');
  if (!result.ok) {
    console.error(`✗ build failed: ${path.relative(options.root, options.outDir) || options.outDir} left unchanged`);
    return 1;
  }
  const { en, pt } = result.pages;
  const seconds = (result.milliseconds / 1000).toFixed(2);
  console.log(`✓ built ${en + pt} pages (en ${en}, pt ${pt}) into ${path.relative(options.root, options.outDir) || '.'}/ in ${seconds} s`);
  return 0;
}
