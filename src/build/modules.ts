import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { digest } from '../load/digest';
import { type CachedModule, requireCached } from './codeCache';
import type { compileTracked } from './compileEdition';
import { type CodeState, type Codes, codeState } from './fingerprint';
import type { WorkerScript } from './markdown';

/**
 * The code a build session loads and fingerprints, each asked for once per session: a change of
 * code starts a new session (`site dev` starts a fresh build thread), so nothing here is ever
 * asked again. Loaded when first needed: a build that finds every body made never loads the
 * markdown toolchain, one that renders no page never loads React.
 */
export class LoadedModules {
  private codes: Promise<CodeState> | undefined;
  private compilerModule: Promise<{ compileTracked: typeof compileTracked }> | undefined;
  /** The compiler's bundle as loaded with V8's code for it, when it was loaded from one. */
  private compilerCode: CachedModule<{ compileTracked: typeof compileTracked }> | undefined;
  private bundle: Promise<string | undefined> | undefined;
  private inMemoryCode: Promise<string> | undefined;
  private rendererModule: Promise<typeof import('../render/document')> | undefined;

  /**
   * @param cacheDir the build cache's folder, where the code graph is kept (none without the cache)
   * @param save whether the session may write there (`site check` writes nothing)
   */
  constructor(
    private readonly cacheDir: string | undefined,
    private readonly save: boolean,
  ) {}

  /** The fingerprint of each kind of work's code, from the import graph of the modules that do it (see `WORK`). */
  code(): Promise<Codes> {
    return this.codeState().then((state) => state.codes);
  }

  /** The code files that changed since the code graph the build cache kept (for `--explain`). */
  codeChanges(): Promise<readonly string[]> {
    return this.codeState().then((state) => state.changed);
  }

  private codeState(): Promise<CodeState> {
    this.codes ??= (async () => {
      if (this.cacheDir && this.save) await mkdir(this.cacheDir, { recursive: true });
      return codeState(this.cacheDir && path.join(this.cacheDir, 'code.json'), this.save);
    })();
    return this.codes;
  }

  /**
   * The markdown compiler, from its bundle in the build cache (see `compilerFile`), or, without
   * one, from its modules, which take several times longer to load.
   */
  compiler(): Promise<typeof compileTracked> {
    this.compilerModule ??= this.compilerBundle().then((file) => {
      if (!file) return import('./compileEdition');
      this.compilerCode = requireCached(file, this.save);
      return this.compilerCode.exports;
    });
    return this.compilerModule.then((module) => module.compileTracked);
  }

  /**
   * Keeps V8's code for the compiler's bundle, once it has compiled in this thread, for the next
   * process: a build that compiles one body (an edit) loads and runs it several milliseconds sooner.
   */
  keepCompilerCode(): void {
    this.compilerCode?.keep();
  }

  /**
   * The markdown worker threads' script: the compiler's bundle in the build cache, or one made in
   * memory without it, or once it is gone (a session that outlived several changes of the
   * compiler's code, whose bundles removed its own).
   */
  async workerCode(): Promise<WorkerScript> {
    const file = await this.compilerBundle();
    if (file && existsSync(file)) return { file };
    this.inMemoryCode ??= import('./workerCode').then((module) => module.compileWorkerCode());
    return { code: await this.inMemoryCode };
  }

  /**
   * The compiler's bundle in the build cache, named by the fingerprint of the code it is made
   * from: the compiler's, and the pipeline's, which bundles it. Undefined without the cache, in a
   * session that may not write it and finds none, or when it cannot be made (the error is then
   * met where the compiler is loaded from its modules).
   */
  private compilerBundle(): Promise<string | undefined> {
    this.bundle ??= (async () => {
      if (!this.cacheDir) return undefined;
      const [{ markdown, pipeline }, { compilerFile }] = await Promise.all([this.code(), import('./workerCode')]);
      return compilerFile(this.cacheDir, digest(markdown, pipeline), this.save).catch(() => undefined);
    })();
    return this.bundle;
  }

  /** React and the templates, loaded the first time a build must render a page. */
  renderer(): Promise<typeof import('../render/document').renderDocument> {
    this.rendererModule ??= import('../render/document');
    return this.rendererModule.then((module) => module.renderDocument);
  }
}
