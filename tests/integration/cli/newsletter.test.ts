import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suppressionHash } from '../../../server/newsletter/address';
import { consentShown } from '../../../server/newsletter/service';
import { loadSiteWords } from '../../../server/newsletter/siteWords';
import { openSqliteStore } from '../../../server/storage/sqlite';
import { csvField, subscribersCsv } from '../../../src/cli/newsletter';
import { site } from '../../support/cli';
import { copyOfContent, PROJECT_ROOT } from '../../support/content';
import { type LoopbackSmtp, startSmtp } from '../../support/smtp';

/** `site newsletter export` over a fresh SQLite database holding these subscribers. */
async function exportOf(subscribers: [string, 'en' | 'pt'][]) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'site-export-'));
  try {
    const db = path.join(dir, 'site.db');
    const store = openSqliteStore(db);
    const words = await loadSiteWords(PROJECT_ROOT);
    const now = new Date('2026-01-02T03:04:05.678Z');
    for (const [email, lang] of subscribers)
      await store.newsletter.signUp({
        email,
        lang,
        consent: consentShown(words, lang),
        nonce: 'n',
        now,
        mailedBefore: now,
      });
    await store.close();
    return await site(['newsletter', 'export', '--db', db]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('site newsletter export', () => {
  it('prints the subscribers as CSV with their consent: state, times, and the text they were shown', async () => {
    const result = await exportOf([
      ['ana@example.pt', 'pt'],
      ['ben@example.com', 'en'],
    ]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toBe(
      'email,language,state,signed_up_at,confirmed_at,unsubscribed_at,consent_version,consent_text',
    );
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 3).join(','))).toEqual([
      'ana@example.pt,pt,pending',
      'ben@example.com,en,pending',
    ]);
    expect(lines[1]).toMatch(
      /^ana@example\.pt,pt,pending,2026-01-02T03:04:05\.678Z,,,pt-[0-9a-f]{12},"Newsletter: Novos artigos no teu e-mail, nunca mais do que uma vez por mês\. \[Subscrever\]"$/,
    );
  });

  it('quotes a field that holds a comma or a quote', () => {
    const row = {
      email: '"odd,one"@example.com',
      lang: 'en',
      state: 'confirmed',
      signedUpAt: '2026-01-01T00:00:00.000Z',
      confirmedAt: null,
      leftAt: null,
      consent: 'legacy',
      consentText: 'x',
    } as const;
    expect(subscribersCsv([row]).split('\n')[1]).toBe(
      '"""odd,one""@example.com",en,confirmed,2026-01-01T00:00:00.000Z,,,legacy,x',
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
    for (const cell of ['ana@example.pt', 'a=b@example.com', 'x+tag@example.com', 'en', '2026-01-01T00:00:00.000Z', ''])
      expect(csvField(cell)).toBe(cell);
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

describe('site newsletter send, forget', () => {
  let content: Awaited<ReturnType<typeof copyOfContent>>;
  let smtp: LoopbackSmtp;
  let db: string;
  const env = () => ({
    SMTP_URL: smtp.url,
    NEWSLETTER_FROM: 'Duarte Salgueiro <newsletter@example.com>',
    NEWSLETTER_SECRET: 's'.repeat(40),
  });
  beforeAll(async () => {
    content = await copyOfContent();
    await content.edit('content/blog/tech/docker.en.md', (text) => text.replace(/^---\n/, '---\ndraft: true\n'));
    await content.edit('content/blog/tech/docker.pt.md', (text) => text.replace(/^---\n/, '---\ndraft: true\n'));
    smtp = await startSmtp();
    db = path.join(content.root, 'data', 'site.db');
    const store = openSqliteStore(db, () => undefined);
    const words = await loadSiteWords(PROJECT_ROOT);
    const now = new Date();
    for (const [email, lang] of [
      ['ana@example.pt', 'pt'],
      ['ben@example.com', 'en'],
    ] as const) {
      await store.newsletter.signUp({
        email,
        lang,
        consent: consentShown(words, lang),
        nonce: 'n',
        now,
        mailedBefore: now,
      });
    }
    for (const owed of await store.newsletter.claimConfirmations(now, 10))
      await store.newsletter.confirm(owed.id, owed.nonce, now, new Date(0));
    await store.close();
  }, 60_000);
  afterAll(async () => {
    await smtp.stop();
    await content.cleanup();
  });
  const send = (...args: string[]) =>
    site(['--root', content.root, 'newsletter', 'send', ...args, '--db', db, '--rate', '1000'], env());

  it('mails a Portuguese-only article to each reader, the English reader with a line saying so, and sends nothing twice when run again', async () => {
    const first = await send('/blog/culture/gulbenkian');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^✓ \/blog\/culture\/gulbenkian: sent 2, skipped 0, failed 0 \(to smtp:\/\/127\.0\.0\.1:\d+, [\d.]+ s, [\d.]+ messages\/s\)\n$/,
    );
    const [toBen] = await smtp.arrival('ben@example.com');
    const [toAna] = await smtp.arrival('ana@example.pt');
    expect(toAna!.mail.subject).toBe(toBen!.mail.subject);
    expect(toBen!.mail.text).toContain('This article exists only in Portuguese.');
    expect(toBen!.mail.html).toContain('Read the whole article');
    expect(toAna!.mail.text).not.toContain('exists only');
    expect(toAna!.mail.html).toContain('Ler o artigo completo');
    expect(toAna!.mail.text).toContain('https://duartesalgueiro.pt/blog/culture/gulbenkian');
    expect(toAna!.mail.text).toMatch(
      /Cancelar subscrição: https:\/\/duartesalgueiro\.pt\/pt\/newsletter\/unsubscribe\?token=\d+\.[\w-]{22}/,
    );
    const again = await send('/blog/culture/gulbenkian');
    expect(again.stdout).toMatch(/^✓ \/blog\/culture\/gulbenkian: sent 0, skipped 2, failed 0 /);
    expect(smtp.received.filter((r) => r.mail.subject === toAna!.mail.subject)).toHaveLength(2);
  });

  it('--dry-run sends nothing, says who would get which edition, and writes the two messages', async () => {
    const before = smtp.received.length;
    const result = await send('/pt/blog/tech/Git', '--dry-run');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '/blog/tech/Git: 2 confirmed subscribers would get it (nothing is sent in a dry run)',
    );
    expect(result.stdout).toMatch(/English readers: 1, the English edition → .*blog-tech-Git\.en\.eml/);
    expect(result.stdout).toMatch(/Portuguese readers: 1, the Portuguese edition → .*blog-tech-Git\.pt\.eml/);
    const files = await readdir(path.join(content.root, 'data', 'outbox', 'dry-run'));
    expect(files.sort()).toEqual(['blog-tech-Git.en.eml', 'blog-tech-Git.pt.eml']);
    await new Promise((r) => setTimeout(r, 100));
    expect(smtp.received.length).toBe(before);
  });

  it('refuses a draft and a route with no article, sending nothing', async () => {
    const draft = await send('/blog/tech/docker');
    expect(draft.code).toBe(1);
    expect(draft.stderr).toMatch(
      /^✗ \/blog\/tech\/docker is not published: the (en|pt) edition is a draft, the (en|pt) edition is a draft\n {2}Publish it first/,
    );
    const none = await send('/blog/tech/Nothing');
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^✗ there is no article at \/blog\/tech\/Nothing/);
  });

  it('forget removes the subscriber and their deliveries, keeping a suppression hash', async () => {
    const result = await site(['--root', content.root, 'newsletter', 'forget', 'Ana@Example.pt', '--db', db], env());
    expect(result.stdout).toBe('✓ Ana@Example.pt: removed; only a suppression hash is kept\n');
    const store = openSqliteStore(db, () => undefined);
    try {
      expect((await store.newsletter.subscribers()).map((s) => s.email)).toEqual(['ben@example.com']);
      expect(await store.newsletter.deliveryCounts('/blog/culture/gulbenkian')).toEqual({
        sent: 1,
        failed: 0,
        interrupted: 0,
      });
      expect(await store.newsletter.isSuppressed(suppressionHash('ana@example.pt', 's'.repeat(40)))).toBe(true);
    } finally {
      await store.close();
    }
    const bad = await site(['newsletter', 'forget', 'not an address\nx', '--db', db]);
    expect(bad.code).toBe(2);
  });
});
