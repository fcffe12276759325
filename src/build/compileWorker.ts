import { parentPort, workerData } from 'node:worker_threads';
import type { RasterCatalogue } from '../images/raster';
import type { Lang } from '../shared/lang';
import type { Route } from '../shared/route';
import { type BodyContent, type BodyFacts, type ContentPlace, PackWriter, splitBody } from './bodyContents';
import { compileTracked } from './compileEdition';
import type { BodySite, FoundInputs } from './found';

/** Sent to the worker: markdown bodies to compile, answered in the same order. */
export interface CompileBatch {
  id: number;
  jobs: { markdown: string; lang: Lang }[];
}

/**
 * A compiled body as a worker answers it: its content is left out when the worker stored it
 * itself, and where it did is told instead.
 */
export interface CompiledBody {
  facts: BodyFacts;
  found: FoundInputs;
  content?: BodyContent;
  place?: ContentPlace;
}

export interface CompileWorkerData {
  routes: Route[];
  imageCdn: string | undefined;
  /** content/media of the site, where the sizes of images other than raster ones are read. */
  mediaDir: string;
  images: RasterCatalogue;
  /** The build cache's folder of body contents, when the build writes to it (see `PackWriter`). */
  contentsDir?: string;
}

// The build's own thread loads this module's bundle too, for `compileTracked` alone (see workerCode.ts).
export { compileTracked };

/**
 * Compiles a text, and stores its content in the worker's pack in the cache folder when there is
 * one (sent back when it cannot be stored). A content stored again (compiled again because it
 * could not be read, or by new code to the same HTML) is appended again: the index keeps the last.
 */
function compile(data: CompileWorkerData, site: BodySite, markdown: string, lang: Lang): CompiledBody {
  const { body, found } = compileTracked(markdown, lang, site);
  const { facts, content } = splitBody(body);
  if (data.contentsDir) {
    try {
      pack ??= new PackWriter(data.contentsDir);
      return { facts, found, place: pack.append(content) };
    } catch {
      // The build's own thread writes it, and reports the failure if it fails there too.
    }
  }
  return { facts, found, content };
}

/** This worker's pack, once it stored a content. */
let pack: PackWriter | undefined;

/** What a markdown worker is started with: its data under a name of its own, which no other thread's data has. */
export interface CompileWorkerStart {
  markdownCompiler: CompileWorkerData;
}

// Not when another thread loads the bundle for its compiler (site dev's build thread is a worker too).
const start = workerData as Partial<CompileWorkerStart> | null;
if (parentPort && start?.markdownCompiler) {
  const port = parentPort;
  const data = start.markdownCompiler;
  const site: BodySite = {
    routes: new Map(data.routes.map((r) => [r.path, r])),
    imageCdn: data.imageCdn,
    mediaDir: data.mediaDir,
    images: data.images,
  };
  port.on('message', (batch: CompileBatch) => {
    port.postMessage({ id: batch.id, results: batch.jobs.map((job) => compile(data, site, job.markdown, job.lang)) });
  });
}
