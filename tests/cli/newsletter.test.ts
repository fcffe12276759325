import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../server/storage/sqlite';
import { csvField, subscribersCsv } from '../../src/cli/newsletter';
import { site } from '../support/cli';

/** `site newsletter export` over a fresh SQLite database holding these subscribers. */
async function exportOf(subscribers: [string, 'en' | 'pt'][]) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'site-export-'));
  try {
    const db = path.join(dir, 'site.db');
    const store = openSqliteStore(db);
    for (const [email, lang] of subscribers) await store.subscribe(email, lang);
    await store.close();
    return await site(['newsletter', 'export', '--db', db]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('site newsletter export', () => {
  it('prints the subscribers as CSV, e-mail, language and time', async () => {
    const result = await exportOf([
      ['ana@example.pt', 'pt'],
      ['ben@example.com', 'en'],
    ]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toBe('email,language,subscribed_at');
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 2).join(','))).toEqual(['ana@example.pt,pt', 'ben@example.com,en']);
    expect(lines[1]).toMatch(/,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('quotes a field that holds a comma or a quote', () => {
    expect(subscribersCsv([{ email: '"odd,one"@example.com', lang: 'en', subscribedAt: '2026-01-01T00:00:00.000Z' }])).toBe(
      'email,language,subscribed_at\n"""odd,one""@example.com",en,2026-01-01T00:00:00.000Z\n',
    );
  });

  it('neutralises a cell a spreadsheet would run as a formula with a leading single quote', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      const cell = `${start}HYPERLINK("http://evil.example","x")`;
      const field = csvField(cell);
      // Quoted (the cell holds quotes), and inside the quotes it starts with the single quote.
      expect(field, JSON.stringify(start)).toBe(`"'${cell.replace(/"/g, '""')}"`);
    }
    expect(csvField('=1+2')).toBe("'=1+2");
    expect(csvField('=1,2')).toBe('"\'=1,2"');
    expect(csvField('-2+3@example.com')).toBe("'-2+3@example.com");
  });

  it('leaves a cell alone when the formula character is not at its start', () => {
    for (const cell of ['ana@example.pt', 'a=b@example.com', 'x+tag@example.com', 'en', '2026-01-01T00:00:00.000Z', '']) expect(csvField(cell)).toBe(cell);
  });

  it('exports an address the API accepts that starts with a formula character as text', async () => {
    // The API's z.email() accepts a local part starting with + or -: a spreadsheet would compute "-2+3".
    const result = await exportOf([
      ['-2+3@example.com', 'en'],
      ['+1@example.com', 'pt'],
    ]);
    expect(result.code).toBe(0);
    expect(
      result.stdout
        .split('\n')
        .slice(1, 3)
        .map((l) => l.split(',')[0])
        .sort(),
    ).toEqual(["'+1@example.com", "'-2+3@example.com"]);
  });
});
