import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { site } from '../../support/cli';
import { copyOfContent } from '../../support/content';
import { freePort } from '../../support/ports';

/**
 * Operational failures of the server commands: each is one line saying what failed, one hint,
 * exit code 1, and no stack trace.
 */
function expectOneLineFailure(
  result: { code: number; stdout: string; stderr: string },
  message: string | RegExp,
): void {
  expect(result.code, result.stderr).toBe(1);
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines, result.stderr).toHaveLength(2);
  if (typeof message === 'string') expect(lines[0]).toBe(`✗ ${message}`);
  else expect(lines[0]).toMatch(message);
  expect(lines[1]).toMatch(/^ {2}\S/);
  expect(result.stderr).not.toMatch(/^\s+at /m);
}

let held: Server;
let heldPort: number;
let dir: string;
beforeAll(async () => {
  // A port some other program holds.
  held = createServer();
  await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
  heldPort = (held.address() as { port: number }).port;
  dir = await mkdtemp(path.join(os.tmpdir(), 'site-serve-fail-'));
});
afterAll(async () => {
  await new Promise((resolve) => held.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

const serve = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  site(['serve', '--dist', inject('distDir'), '--db', path.join(dir, 'site.db'), ...args], {
    DATABASE_URL: '',
    ...env,
  });

describe('site serve cannot start', () => {
  it('on a port in use', async () => {
    const result = await serve(['--port', String(heldPort)]);
    expectOneLineFailure(
      result,
      `cannot listen on 127.0.0.1:${heldPort}: port ${heldPort} is already in use (EADDRINUSE)`,
    );
    expect(result.stderr).toContain('--port');
  });

  it('on an address that is not this machine', async () => {
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): assigned to no machine.
    const port = await freePort();
    const result = await serve(['--host', '192.0.2.1', '--port', String(port)]);
    expectOneLineFailure(
      result,
      `cannot listen on 192.0.2.1:${port}: 192.0.2.1 is not an address of this machine (EADDRNOTAVAIL)`,
    );
    expect(result.stderr).toContain('--host');
  });

  it('on a host name that does not exist', async () => {
    const result = await serve(['--host', 'no-such-host.invalid', '--port', String(await freePort())]);
    expectOneLineFailure(
      result,
      /^✗ cannot listen on no-such-host\.invalid:\d+: the host name no-such-host\.invalid (was not found \(ENOTFOUND\)|could not be looked up \(EAI_AGAIN\))$/,
    );
  });

  it('on a SQLite file whose folder is a file', async () => {
    await writeFile(path.join(dir, 'a-file'), 'not a folder');
    const db = path.join(dir, 'a-file', 'data', 'site.db');
    const result = await serve(['--port', String(await freePort()), '--db', db]);
    expectOneLineFailure(
      result,
      `cannot open the SQLite database ${db}: ${path.join(dir, 'a-file')} is a file, not a folder (ENOTDIR)`,
    );
  });

  it('on a SQLite file in a folder that is a file', async () => {
    const db = path.join(dir, 'a-file', 'site.db');
    await writeFile(path.join(dir, 'a-file'), 'not a folder');
    const result = await serve(['--port', String(await freePort()), '--db', db]);
    expectOneLineFailure(
      result,
      `cannot open the SQLite database ${db}: ${path.join(dir, 'a-file')} is a file, not a folder (EEXIST)`,
    );
  });

  it('on a SQLite path that is a folder', async () => {
    const db = path.join(dir, 'a-folder.db');
    await mkdir(db, { recursive: true });
    const result = await serve(['--port', String(await freePort()), '--db', db]);
    expectOneLineFailure(
      result,
      `cannot open the SQLite database ${db}: a folder stands where the database file should be (SQLITE_CANTOPEN)`,
    );
  });

  it('on a file that is not a SQLite database', async () => {
    const db = path.join(dir, 'notes.txt');
    await writeFile(db, 'These are my notes, not a database. '.repeat(40));
    const result = await serve(['--port', String(await freePort()), '--db', db]);
    expectOneLineFailure(
      result,
      `cannot open the SQLite database ${db}: the file is not a SQLite database (SQLITE_NOTADB)`,
    );
  });

  it('on a DATABASE_URL that refuses the connection, without printing its password', async () => {
    const port = await freePort();
    const result = await serve(['--port', String(await freePort())], {
      DATABASE_URL: `postgres://site:hunter2@127.0.0.1:${port}/site`,
    });
    expectOneLineFailure(
      result,
      `cannot connect to PostgreSQL at 127.0.0.1:${port}/site: the connection was refused (ECONNREFUSED)`,
    );
    expect(result.stderr).not.toContain('hunter2');
  });

  it('prints the stack only with --verbose', async () => {
    const result = await site(
      [
        '--verbose',
        'serve',
        '--dist',
        inject('distDir'),
        '--db',
        path.join(dir, 'site.db'),
        '--port',
        String(heldPort),
      ],
      { DATABASE_URL: '' },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`✗ cannot listen on 127.0.0.1:${heldPort}`);
    expect(result.stderr).toMatch(/^\s+at /m);
  });
});

describe('site newsletter export cannot open the database', () => {
  it('says which file and why, in one line', async () => {
    const db = path.join(dir, 'folder-db');
    await mkdir(db, { recursive: true });
    const result = await site(['newsletter', 'export', '--db', db], { DATABASE_URL: '' });
    expectOneLineFailure(
      result,
      `cannot open the SQLite database ${db}: a folder stands where the database file should be (SQLITE_CANTOPEN)`,
    );
    expect(result.stdout).toBe('');
  });
});

describe('site dev cannot start', () => {
  it('on a port in use: one line, exit 1, and the watcher and build thread do not keep it alive', async () => {
    const { root, cleanup } = await copyOfContent({ articles: 'clean' });
    try {
      const started = Date.now();
      const result = await site(['--root', root, 'dev', '--port', String(heldPort), '--db', path.join(root, 'dev.db')]);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toBe(
        `✗ cannot listen on 127.0.0.1:${heldPort}: port ${heldPort} is already in use (EADDRINUSE)\n  Stop the other server on that port, or choose another port with --port.\n`,
      );
      expect(Date.now() - started).toBeLessThan(25_000);
    } finally {
      await cleanup();
    }
  }, 60_000);

  it('on a database file it cannot open', async () => {
    const { root, cleanup } = await copyOfContent({ articles: 'clean' });
    try {
      const db = path.join(root, 'content', 'site.json', 'dev.db');
      const result = await site(['--root', root, 'dev', '--port', String(await freePort()), '--db', db]);
      expectOneLineFailure(
        result,
        `cannot open the SQLite database ${db}: ${path.join(root, 'content', 'site.json')} is a file, not a folder (EEXIST)`,
      );
    } finally {
      await cleanup();
    }
  }, 60_000);
});
