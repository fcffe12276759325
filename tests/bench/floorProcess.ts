// The floor of the cold build, run by the bench as a process of its own (bundled first, see
// floor.ts): the owner's text pipeline bare, unified + remark-parse + remark-gfm + remark-rehype +
// highlight.js's common grammars through lowlight (as our compiler calls them) + rehype-stringify,
// on two worker threads, writing each edition's HTML body: no layout, no links resolved, no
// figures, no images, no search, no cache. Usage: node floor.mjs <manifest.json> [--no-gfm], the
// manifest listing { from, to } pairs (a markdown file, the HTML file to write); with --no-gfm,
// without remark-gfm, which more than doubles remark-parse's time and which our compiler turns on
// only for the constructs a text may hold (src/markdown/gfm.ts).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { Element, ElementContent, Root } from 'hast';
import { toString as hastToString } from 'hast-util-to-string';
import { common, createLowlight } from 'lowlight';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';

/** One page to make: the markdown it is made from, and where its HTML goes. */
export interface FloorJob {
  from: string;
  to: string;
}

const THREADS = 2;
const FRONT_MATTER = /^---\n[\s\S]*?\n---\n/;

/** Colours each fenced block whose language a grammar knows, as our compiler does (hljs classes). */
function rehypeLowlight() {
  const lowlight = createLowlight(common);
  return (tree: Root) => {
    visit(tree, 'element', (node: Element, _index, parent) => {
      if (node.tagName !== 'code' || parent?.type !== 'element' || parent.tagName !== 'pre') return;
      const classes = Array.isArray(node.properties.className) ? node.properties.className.map(String) : [];
      const language = classes.find((name) => name.startsWith('language-'))?.slice('language-'.length);
      if (!language || !lowlight.registered(language)) return;
      node.children = lowlight.highlight(language, hastToString(node)).children as ElementContent[];
      node.properties.className = [...classes, 'hljs'];
    });
  };
}

/** What a thread is given: its share of the jobs, and whether GFM is parsed. */
interface FloorThread {
  jobs: readonly FloorJob[];
  gfm: boolean;
}

async function compileAll({ jobs, gfm }: FloorThread): Promise<number> {
  const parse = gfm ? unified().use(remarkParse).use(remarkGfm) : unified().use(remarkParse);
  const processor = parse.use(remarkRehype).use(rehypeLowlight).use(rehypeStringify).freeze();
  const made = new Set<string>();
  for (const job of jobs) {
    const markdown = (await readFile(job.from, 'utf8')).replace(FRONT_MATTER, '');
    const html = String(await processor.process(markdown));
    const dir = path.dirname(job.to);
    if (!made.has(dir)) {
      await mkdir(dir, { recursive: true });
      made.add(dir);
    }
    await writeFile(job.to, html);
  }
  return jobs.length;
}

if (isMainThread) {
  const manifest = process.argv[2];
  if (!manifest) throw new Error('usage: node floor.mjs <manifest.json> [--no-gfm]');
  const gfm = !process.argv.includes('--no-gfm');
  const jobs = JSON.parse(await readFile(manifest, 'utf8')) as FloorJob[];
  const written = await Promise.all(
    Array.from(
      { length: THREADS },
      (_, thread) =>
        new Promise<number>((resolve, reject) => {
          const worker = new Worker(new URL(import.meta.url), {
            workerData: { jobs: jobs.filter((_job, i) => i % THREADS === thread), gfm } satisfies FloorThread,
          });
          worker.once('message', resolve);
          worker.once('error', reject);
        }),
    ),
  );
  console.log(`wrote ${written.reduce((sum, n) => sum + n, 0)} pages`);
} else {
  parentPort?.postMessage(await compileAll(workerData as FloorThread));
}
