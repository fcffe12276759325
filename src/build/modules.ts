import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { type CodeState, type Codes, codeState } from './fingerprint';

/**
 * The code a build session loads and fingerprints, each asked for once per session: a change of
 * code starts a new session (`site dev` starts a fresh build thread), so nothing here is ever
 * asked again. Loaded when first needed: a build that finds every body made never loads the
 * markdown toolchain, one that renders no page never loads React.
 */
export class LoadedModules {
  private codes: Promise<CodeState> | undefined;
  private compilerModule: Promise<typeof import('./compileEdition')> | undefined;
  private workerScript: Promise<string> | undefined;
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

  /** The markdown compiler: the toolchain takes a while to load. */
  compiler(): Promise<typeof import('./compileEdition').compileTracked> {
    this.compilerModule ??= import('./compileEdition');
    return this.compilerModule.then((module) => module.compileTracked);
  }

  /** The markdown worker threads' script, bundled the first time a build compiles texts on workers. */
  workerCode(): Promise<string> {
    this.workerScript ??= import('./workerCode').then((module) => module.compileWorkerCode());
    return this.workerScript;
  }

  /** React and the templates, loaded the first time a build must render a page. */
  renderer(): Promise<typeof import('../render/document').renderDocument> {
    this.rendererModule ??= import('../render/document');
    return this.rendererModule.then((module) => module.renderDocument);
  }
}
