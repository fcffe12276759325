import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../server/storage/sqlite';
import { subscribersCsv } from '../../src/cli/newsletter';
import { site } from '../support/cli';

describe('site newsletter export', () => {
  it('prints the subscribers as CSV, e-mail, language and time', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'site-export-'));
    const db = path.join(dir, 'site.db');
    const store = openSqliteStore(db);
    await store.subscribe('ana@example.pt', 'pt');
    await store.subscribe('ben@example.com', 'en');
    await store.close();
    const result = await site(['newsletter', 'export', '--db', db]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toBe('email,language,subscribed_at');
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 2).join(','))).toEqual(['ana@example.pt,pt', 'ben@example.com,en']);
    expect(lines[1]).toMatch(/,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    await rm(dir, { recursive: true, force: true });
  });

  it('quotes a field that holds a comma or a quote', () => {
    expect(subscribersCsv([{ email: '"odd,one"@example.com', lang: 'en', subscribedAt: '2026-01-01T00:00:00.000Z' }])).toBe(
      'email,language,subscribed_at\n"""odd,one""@example.com",en,2026-01-01T00:00:00.000Z\n',
    );
  });
});
