import path from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../support/content';

// The source roots (tsconfig.{shared,client,node}.json) hold only while a crossing is a type error.
// Each probe is a small file, kept in memory and never written, type-checked as if it stood at its
// path inside its root: the root's own files and settings, the probe added. Only the probes' own
// diagnostics count, so unfinished work elsewhere in the tree does not make these tests fail.

type Root = 'shared' | 'client' | 'node';

/** TS2307 cannot find module; TS2304/2584/2591 cannot find name; TS6307 file not listed in the project. */
const NO_MODULE = 2307;
const NO_NAME = expect.toBeOneOf([2304, 2584, 2591]);
const NOT_IN_PROJECT = 6307;

const PROBES: Record<Root, Record<string, string>> = {
  client: {
    'src/client/probe-allowed.ts': `
import { postJson } from './api';
import type { Lang } from '../shared/lang';
const lang: Lang = 'en';
document.title = lang;
void postJson;
`,
    'src/client/probe-node-module.ts': "import { readFile } from 'node:fs/promises';\nvoid readFile;\n",
    'templates/probe-node-module.tsx': "import path from 'node:path';\nexport const x = path.sep;\n",
    'src/client/probe-pipeline.ts': "import { build } from '../build/pipeline';\nvoid build;\n",
    'templates/probe-model.ts': "import { routeTable } from '../src/model/routes';\nvoid routeTable;\n",
    'src/client/probe-process.ts': 'export const cwd = process.cwd();\n',
  },
  shared: {
    'src/shared/probe-allowed.ts': "import type { Lang } from './lang';\nexport const langs: Lang[] = ['en', 'pt'];\n",
    'src/shared/probe-document.ts': 'export const title = document.title;\n',
    'src/shared/probe-node-module.ts': "import { sep } from 'node:path';\nexport const s = sep;\n",
    'src/shared/probe-client.ts': "import { postJson } from '../client/api';\nvoid postJson;\n",
    'src/shared/probe-pipeline.ts': "import { build } from '../build/pipeline';\nvoid build;\n",
  },
  node: {
    'src/render/probe-allowed.tsx': `
import { readFile } from 'node:fs/promises';
import { Document } from '../../templates/Document';
import type { Lang } from '../shared/lang';
export const use = [readFile, Document, 'en' satisfies Lang];
`,
    'src/render/probe-document.ts': 'export const title = document.title;\n',
    'server/probe-window.ts': "window.location.assign('/');\n",
  },
};

/** Source files parsed once for all three programs (the libraries and @types are most of the work). */
const parsed = new Map<string, ts.SourceFile | undefined>();

const CONFIG_HOST: ts.ParseConfigFileHost = {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (d) => {
    throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  },
};

/** The error codes of one probe, `code` at `at`, type-checked within `root`. */
function check(root: Root, at: string, code: string): number[] {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(PROJECT_ROOT, `tsconfig.${root}.json`), {}, CONFIG_HOST);
  if (!config) throw new Error(`tsconfig.${root}.json cannot be read`);
  // One program a probe: TypeScript reports a file missing from the project once, at its first importer.
  const probe = path.join(PROJECT_ROOT, at);
  const host = ts.createCompilerHost(config.options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, language, ...rest) => {
    if (path.resolve(name) === probe) return ts.createSourceFile(name, code, language);
    const key = `${name}\0${JSON.stringify(language)}`;
    if (!parsed.has(key)) parsed.set(key, getSourceFile.call(host, name, language, ...rest));
    return parsed.get(key);
  };
  host.fileExists = (name) => path.resolve(name) === probe || fileExists.call(host, name);
  host.readFile = (name) => (path.resolve(name) === probe ? code : readFile.call(host, name));
  const program = ts.createProgram({
    rootNames: [...config.fileNames, probe],
    options: config.options,
    projectReferences: config.projectReferences ?? [],
    host,
  });
  const file = program.getSourceFile(probe);
  if (!file) throw new Error(`${at} is not in the program`);
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSyntacticDiagnostics(file),
    ...program.getSemanticDiagnostics(file),
  ];
  return diagnostics.filter((d) => d.file === file).map((d) => d.code);
}

const found = new Map<string, number[]>();
const errorsOf = (at: string) => found.get(at);

beforeAll(() => {
  // The node root reads the shared and client roots through their declarations (project
  // references), so those are built first; when up to date, this only compares timestamps.
  ts.createSolutionBuilder(
    ts.createSolutionBuilderHost(ts.sys),
    [path.join(PROJECT_ROOT, 'tsconfig.client.json')],
    {},
  ).build();
  for (const root of Object.keys(PROBES) as Root[]) {
    for (const [at, code] of Object.entries(PROBES[root])) found.set(at, check(root, at, code));
  }
}, 60_000);

describe('the browser root (src/client, src/dev/client.ts, templates)', () => {
  it('may use the DOM, the shared code and the other browser code', () => {
    expect(errorsOf('src/client/probe-allowed.ts')).toEqual([]);
  });

  it('cannot import a Node module', () => {
    expect(errorsOf('src/client/probe-node-module.ts')).toContain(NO_MODULE);
    expect(errorsOf('templates/probe-node-module.tsx')).toContain(NO_MODULE);
  });

  it('cannot import pipeline code, even code that uses nothing of Node', () => {
    expect(errorsOf('src/client/probe-pipeline.ts')).toContain(NOT_IN_PROJECT);
    expect(errorsOf('templates/probe-model.ts')).toContain(NOT_IN_PROJECT);
  });

  it('has no Node globals', () => {
    expect(errorsOf('src/client/probe-process.ts')).toEqual([NO_NAME]);
  });
});

describe('the shared root (src/shared)', () => {
  it('may use plain TypeScript and its own modules', () => {
    expect(errorsOf('src/shared/probe-allowed.ts')).toEqual([]);
  });

  it('has neither the DOM nor Node', () => {
    expect(errorsOf('src/shared/probe-document.ts')).toEqual([NO_NAME]);
    expect(errorsOf('src/shared/probe-node-module.ts')).toContain(NO_MODULE);
  });

  it('imports neither browser nor Node code', () => {
    expect(errorsOf('src/shared/probe-client.ts')).toContain(NOT_IN_PROJECT);
    expect(errorsOf('src/shared/probe-pipeline.ts')).toContain(NOT_IN_PROJECT);
  });
});

describe('the Node root (src, server, scripts, tests)', () => {
  it('may use Node, the shared code and the templates', () => {
    expect(errorsOf('src/render/probe-allowed.tsx')).toEqual([]);
  });

  it('cannot touch document or window', () => {
    expect(errorsOf('src/render/probe-document.ts')).toEqual([NO_NAME]);
    expect(errorsOf('server/probe-window.ts')).toEqual([NO_NAME]);
  });
});
