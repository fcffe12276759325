import { parentPort, workerData } from 'node:worker_threads';
import type { RasterCatalogue } from '../images/raster';
import type { Lang } from '../shared/lang';
import type { Route } from '../shared/route';
import { compileTracked } from './compileEdition';

/** Sent to the worker: markdown bodies to compile, answered in the same order. */
export interface CompileBatch {
  id: number;
  jobs: { markdown: string; lang: Lang }[];
}

export interface CompileWorkerData {
  routes: Route[];
  imageCdn: string | undefined;
  /** content/media of the site, where the sizes of images other than raster ones are read. */
  mediaDir: string;
  images: RasterCatalogue;
}

const data = workerData as CompileWorkerData;
const site = { routes: new Map(data.routes.map((r) => [r.path, r])), imageCdn: data.imageCdn, mediaDir: data.mediaDir, images: data.images };

parentPort?.on('message', (batch: CompileBatch) => {
  parentPort?.postMessage({ id: batch.id, results: batch.jobs.map((job) => compileTracked(job.markdown, job.lang, site)) });
});
