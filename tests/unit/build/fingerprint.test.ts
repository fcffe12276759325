import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Codes, codeGraph, codeState, TOOL_ROOT, WORK } from '../../../src/build/fingerprint';

/**
 * The code each kind of cached work depends on is the import graph of the modules that do it, not
 * a list: an import added anywhere moves the fingerprints of exactly the kinds that reach it.
 * Worked out on a private copy of the tool's source, edited as a contributor would.
 */
describe('code fingerprints', () => {
  let tool: string;

  beforeAll(async () => {
    tool = await mkdtemp(path.join(os.tmpdir(), 'site-code-graph-'));
    for (const part of ['src', 'templates', 'tsconfig.json', 'package-lock.json'])
      await cp(path.join(TOOL_ROOT, part), path.join(tool, part), { recursive: true });
  });

  afterAll(async () => {
    await rm(tool, { recursive: true, force: true });
  });

  const codes = async (): Promise<Codes> => (await codeState(undefined, false, tool)).codes;
  const moved = (before: Codes, after: Codes) =>
    (Object.keys(WORK) as (keyof Codes)[]).filter((kind) => before[kind] !== after[kind]).sort();

  it('reaches what each kind imports however indirectly, dynamic imports and templates included', async () => {
    const { reach } = await codeGraph(tool);
    // Imported by the markdown compiler through two modules: the list kept by hand lacked both.
    expect(reach.markdown).toContain('src/load/limits.ts');
    expect(reach.markdown).toContain('src/diagnostics/failure.ts');
    expect(reach.load).toContain('src/diagnostics/position.ts');
    // The renderer is imported when the first page is rendered; it brings the templates.
    expect(reach.pipeline).toContain('templates/pages/Article.tsx');
    expect(reach.assets).toContain('src/client/islands.tsx');
    // Nothing beyond what the work runs: no CLI, no server, no page script the templates do not import.
    expect(
      reach.pipeline.some(
        (file) => file.startsWith('src/cli/') || file.startsWith('server/') || file === 'src/client/codeCopy.ts',
      ),
    ).toBe(false);
    expect(reach.images.some((file) => file.startsWith('src/markdown/'))).toBe(false);
  });

  it('moves the fingerprints of the kinds that reach an edited leaf module, and only those', async () => {
    const before = await codes();
    const limits = path.join(tool, 'src/load/limits.ts');
    const text = await readFile(limits, 'utf8');
    await writeFile(limits, text.replace('export const MAX_DEPTH = 64;', 'export const MAX_DEPTH = 32;'));
    const after = await codes();
    expect(moved(before, after)).toEqual(['load', 'markdown', 'pipeline']);
    await writeFile(limits, text);
    expect(await codes()).toEqual(before);
  });

  it('moves them when an import is added to a leaf module, reaching a new file', async () => {
    const before = await codes();
    const leaf = path.join(tool, 'src/images/variants.ts');
    const text = await readFile(leaf, 'utf8');
    await writeFile(path.join(tool, 'src/images/widths.ts'), 'export const EXTRA_WIDTH = 2560;\n');
    await writeFile(leaf, `import { EXTRA_WIDTH } from './widths';\n${text}\nexport const WIDEST = EXTRA_WIDTH;\n`);
    const { reach } = await codeGraph(tool);
    expect(reach.images).toContain('src/images/widths.ts');
    const after = await codes();
    expect(moved(before, after)).toEqual(['images', 'markdown', 'pipeline']);
    // The new file is now code: its own edit moves the same fingerprints again.
    await writeFile(path.join(tool, 'src/images/widths.ts'), 'export const EXTRA_WIDTH = 3840;\n');
    expect(moved(after, await codes())).toEqual(['images', 'markdown', 'pipeline']);
    await writeFile(leaf, text);
    await rm(path.join(tool, 'src/images/widths.ts'));
    expect(await codes()).toEqual(before);
  });

  it('moves only the share cards when the card template changes: the build names cards by their inputs, that fingerprint among them', async () => {
    const { reach } = await codeGraph(tool);
    // Drawn on threads started by path: the build itself never imports the drawing code.
    expect(reach.cards).toEqual(
      expect.arrayContaining([
        'src/cards/drawWorker.ts',
        'src/cards/draw.ts',
        'templates/cards/ShareCard.tsx',
        'src/shared/card.ts',
      ]),
    );
    expect(reach.pipeline).not.toContain('templates/cards/ShareCard.tsx');
    const before = await codes();
    const file = path.join(tool, 'templates/cards/ShareCard.tsx');
    const text = await readFile(file, 'utf8');
    const edited = text.replace('const FOOT = 150;', 'const FOOT = 160;');
    expect(edited).not.toBe(text);
    await writeFile(file, edited);
    expect(moved(before, await codes())).toEqual(['cards']);
    await writeFile(file, text);
  });

  it('moves only the client bundle when browser code changes', async () => {
    const before = await codes();
    const file = path.join(tool, 'src/client/codeCopy.ts');
    const text = await readFile(file, 'utf8');
    await writeFile(file, `${text}\n// edited\n`);
    expect(moved(before, await codes())).toEqual(['assets']);
    await writeFile(file, text);
  });

  it('keeps the graph in the build cache while no file of it changed, and names the files that did', async () => {
    const cache = path.join(tool, 'code.json');
    const first = await codeState(cache, true, tool);
    expect(first.changed).toEqual([]);
    const again = await codeState(cache, true, tool);
    expect(again).toEqual(first);
    const limits = path.join(tool, 'src/load/limits.ts');
    const text = await readFile(limits, 'utf8');
    await writeFile(limits, `${text}\n`);
    const edited = await codeState(cache, true, tool);
    expect(edited.changed).toEqual(['src/load/limits.ts']);
    expect(edited.codes.pipeline).not.toBe(first.codes.pipeline);
    await writeFile(limits, text);
  });
});
