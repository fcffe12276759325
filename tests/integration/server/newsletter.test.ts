import { getEventListeners } from 'node:events';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { simpleParser } from 'mailparser';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { buildApp } from '../../../server/app';
import { articleMail, type MailContent } from '../../../server/newsletter/emails';
import { openPostman, type Postman } from '../../../server/newsletter/postman';
import { sendArticle, UNSUBSCRIBE_SLOT } from '../../../server/newsletter/send';
import { consentShown, unsubscribeUrl } from '../../../server/newsletter/service';
import { loadSiteWords, type SiteWords } from '../../../server/newsletter/siteWords';
import type { NewsletterStore } from '../../../server/newsletter/store';
import { Tokens } from '../../../server/newsletter/tokens';
import { openPostgresStore } from '../../../server/storage/postgres';
import { openSqliteStore } from '../../../server/storage/sqlite';
import type { SiteStore } from '../../../server/storage/store';
import type { Lang } from '../../../src/shared/lang';
import { PROJECT_ROOT } from '../../support/content';
import { freePort } from '../../support/ports';
import { usePostgres } from '../../support/postgres';
import { type LoopbackSmtp, startSmtp } from '../../support/smtp';

const cluster = usePostgres();
const FROM = '"Duarte Salgueiro" <newsletter@example.com>';
const BASE = 'https://example.com';
const HOUR = 3_600_000;

let databases = 0;
/** A fresh PostgreSQL database of the throwaway cluster. */
async function freshPostgres(): Promise<string> {
  const name = `news${++databases}`;
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  return cluster.url.replace(/\/[^/]*$/, `/${name}`);
}

const ADAPTERS: [string, (log?: (line: string) => void) => Promise<SiteStore>][] = [
  ['SQLite', async (log) => openSqliteStore(':memory:', log)],
  ['PostgreSQL', async (log) => openPostgresStore(await freshPostgres(), log ? { log } : {})],
];

let words: SiteWords;
beforeAll(async () => {
  words = await loadSiteWords(PROJECT_ROOT);
});

/** A clock the tests move on: 24 hours, 7 days. */
function clock() {
  let at = Date.parse('2026-03-02T10:00:00.000Z');
  return { now: () => new Date(at), advance: (ms: number) => (at += ms) };
}

/** The link of a confirmation e-mail (its text part), as the reader would click it. */
function confirmLink(text: string | undefined): URL {
  const match = /https:\/\/example\.com\S*\/newsletter\/confirm\?token=\S+/.exec(text ?? '');
  expect(match, text).not.toBeNull();
  return new URL(match![0]);
}

/** A message's header section with folded lines joined, as RFC 5322 reads it. */
function unfolded(raw: Buffer): string {
  const text = raw.toString();
  return text.slice(0, text.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, ' ');
}

/** A confirmed subscriber, straight in the store (the sending tests start there). */
async function confirmed(store: NewsletterStore, email: string, lang: Lang, now: Date): Promise<number> {
  await store.signUp({ email, lang, consent: consentShown(words, lang), nonce: `n-${email}`, now, mailedBefore: now });
  const [owed] = (await store.claimConfirmations(now, 1000)).filter((o) => o.email === email);
  expect(await store.confirm(owed!.id, owed!.nonce, now, new Date(now.getTime() - HOUR))).toBe(true);
  return owed!.id;
}

describe.each(ADAPTERS)('the newsletter on %s', (_name, open) => {
  let app: FastifyInstance;
  let store: SiteStore;
  let smtp: LoopbackSmtp;
  let postman: Postman;
  let xsrf: string;
  const time = clock();

  beforeAll(async () => {
    smtp = await startSmtp();
    store = await open();
    postman = openPostman({ smtpUrl: smtp.url, outboxDir: 'unused', from: FROM });
    app = await buildApp({
      distDir: inject('distDir'),
      store,
      rateLimit: { max: 10_000, timeWindow: 60_000 },
      newsletter: { postman, baseUrl: BASE, root: PROJECT_ROOT, now: time.now, retryMs: 50 },
    });
    const page = await app.inject({ url: '/aboutme' });
    xsrf = /XSRF-TOKEN=([^;]+)/.exec(String(page.headers['set-cookie']))![1]!;
  });
  afterAll(async () => {
    await app.close();
    postman.close();
    await store.close();
    await smtp.stop();
  });
  afterEach(() => {
    smtp.judge = () => undefined;
  });

  const signUp = (email: string, language: Lang) =>
    app.inject({
      method: 'POST',
      url: '/api/newsletter',
      headers: { cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf, 'content-type': 'application/json' },
      payload: JSON.stringify({ email, language }),
    });
  const stateOf = async (email: string) => (await store.newsletter.subscribers()).find((s) => s.email === email)?.state;
  const mailsTo = (email: string) => smtp.received.filter((r) => r.to.includes(email));
  /** Lets the confirmation e-mails sent after an answer arrive. */
  const settle = async () => {
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 10));
  };

  it('signs up in each language: a confirmation e-mail in that language, and the same answer', async () => {
    const en = await signUp('ana@example.com', 'en');
    const pt = await signUp('bruno@example.pt', 'pt');
    expect(en.statusCode).toBe(200);
    expect(en.json()).toEqual({
      success: true,
      text: { en: expect.stringMatching(/check your inbox/), pt: expect.stringMatching(/vê o teu e-mail/) },
    });
    expect(pt.body).toBe(en.body);
    const [toAna] = await smtp.arrival('ana@example.com');
    const [toBruno] = await smtp.arrival('bruno@example.pt');
    expect(toAna!.mail.subject).toBe('Confirm your subscription to Duarte Salgueiro');
    expect(toBruno!.mail.subject).toBe('Confirma a tua subscrição de Duarte Salgueiro');
    expect(toAna!.mail.from?.value).toEqual([{ name: 'Duarte Salgueiro', address: 'newsletter@example.com' }]);
    expect(toAna!.mail.html).toContain('Confirm subscription');
    expect(toBruno!.mail.html).toContain('Confirmar subscrição');
    expect(confirmLink(toAna!.mail.text).pathname).toBe('/newsletter/confirm');
    expect(confirmLink(toBruno!.mail.text).pathname).toBe('/pt/newsletter/confirm');
    expect(await stateOf('ana@example.com')).toBe('pending');
    const exported = (await store.newsletter.subscribers()).find((s) => s.email === 'bruno@example.pt')!;
    expect(exported).toMatchObject({
      lang: 'pt',
      consent: expect.stringMatching(/^pt-[0-9a-f]{12}$/),
      consentText: expect.stringContaining('nunca mais do que uma vez por mês'),
    });
  });

  it('opening the link (a GET, as a mail scanner does) shows a button and changes nothing; its POST confirms', async () => {
    await signUp('carla@example.com', 'pt');
    const link = confirmLink((await smtp.arrival('carla@example.com'))[0]!.mail.text);
    const shown = await app.inject({ url: `${link.pathname}${link.search}` });
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toMatch(/^text\/html/);
    expect(shown.body).toContain('<html lang="pt"');
    expect(shown.body).toContain('Confirma a tua subscrição');
    expect(shown.body).toMatch(
      /<form action="\/pt\/newsletter\/confirm" method="post"><input type="hidden" name="token" value="[^"]+"\/><button class="button" type="submit">Confirmar subscrição<\/button>/,
    );
    // The site's layout is around it: the footer's newsletter form and the navigation.
    expect(shown.body).toContain('id="newsletter-email"');
    expect(shown.body).toContain('href="/pt/aboutme"');
    expect(await stateOf('carla@example.com')).toBe('pending');
    // The button's form: no anti-forgery cookie, the token in the body.
    const pressed = await app.inject({
      method: 'POST',
      url: link.pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `token=${link.searchParams.get('token')}`,
    });
    expect(pressed.statusCode).toBe(200);
    expect(pressed.body).toContain('Subscrição confirmada');
    expect(await stateOf('carla@example.com')).toBe('confirmed');
    // Pressed twice (a reload): no error.
    const again = await app.inject({ method: 'POST', url: `${link.pathname}${link.search}` });
    expect(again.statusCode).toBe(200);
  });

  it('gives the same answer for a new, pending, confirmed and unsubscribed address, and never puts a confirmed one back to pending', async () => {
    const answers = new Set<string>();
    answers.add((await signUp('dora@example.com', 'en')).body);
    await smtp.arrival('dora@example.com');
    answers.add((await signUp('dora@example.com', 'en')).body); // pending
    const link = confirmLink(mailsTo('dora@example.com')[0]!.mail.text);
    await app.inject({ method: 'POST', url: `${link.pathname}${link.search}` });
    answers.add((await signUp('Dora@Example.com', 'pt')).body); // confirmed, another case
    await settle();
    expect(await stateOf('dora@example.com')).toBe('confirmed');
    expect(mailsTo('dora@example.com')).toHaveLength(1);
    expect(answers.size).toBe(1);
  });

  it('mails at most one confirmation per address in 24 hours, however often it signs up', async () => {
    for (let i = 0; i < 5; i++) await signUp('eva@example.com', 'en');
    await settle();
    expect(mailsTo('eva@example.com')).toHaveLength(1);
    time.advance(23 * HOUR);
    await signUp('eva@example.com', 'en');
    await settle();
    expect(mailsTo('eva@example.com')).toHaveLength(1);
    time.advance(2 * HOUR);
    await signUp('eva@example.com', 'en');
    await smtp.arrival('eva@example.com', 2);
    await settle();
    expect(mailsTo('eva@example.com')).toHaveLength(2);
  });

  it('removes a sign-up not confirmed in 7 days, and its link no longer confirms', async () => {
    await signUp('filipa@example.com', 'pt');
    const link = confirmLink((await smtp.arrival('filipa@example.com'))[0]!.mail.text);
    time.advance(7 * 24 * HOUR + 1000);
    const late = await app.inject({ method: 'POST', url: `${link.pathname}${link.search}` });
    expect(late.statusCode).toBe(400);
    expect(late.body).toContain('Este link não funciona');
    expect(await stateOf('filipa@example.com')).toBe('pending');
    await signUp('someone-else@example.com', 'en'); // any sign-up sweeps the expired ones
    expect(await stateOf('filipa@example.com')).toBeUndefined();
  });

  it('refuses a malformed or forged token with a 400 page, and a token of one purpose for the other', async () => {
    await signUp('gil@example.com', 'en');
    const link = confirmLink((await smtp.arrival('gil@example.com'))[0]!.mail.text);
    const token = link.searchParams.get('token')!;
    const forged = `${token.slice(0, -2)}${token.endsWith('AA') ? 'AB' : 'AA'}`;
    for (const url of [
      '/newsletter/confirm',
      '/newsletter/confirm?token=',
      '/newsletter/confirm?token=abc',
      `/newsletter/confirm?token=${'9'.repeat(500)}`,
      `/newsletter/confirm?token=${forged}`,
      `/newsletter/unsubscribe?token=${token}`,
      '/pt/newsletter/unsubscribe?token=1.AAAAAAAAAAAAAAAAAAAAAA',
    ]) {
      const response = await app.inject({ method: 'POST', url });
      expect(response.statusCode, url).toBe(400);
      expect((await app.inject({ url })).statusCode, url).toBe(400);
    }
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/newsletter/confirm',
          headers: { 'content-type': 'application/json' },
          payload: '{"token": ',
        })
      ).statusCode,
    ).toBe(400);
    expect(await stateOf('gil@example.com')).toBe('pending');
  });

  it('refuses an address with a line break, over 320 characters, or not an address, before any mail', async () => {
    const refused = [
      'x@example.com\r\nBcc: victim@example.com',
      'x@example.com\nx',
      `${'a'.repeat(310)}@example.com`,
      'not an address',
      'a@b@c',
    ];
    for (const email of [
      'x@example.com\r\nBcc: victim@example.com',
      'x@example.com\nx',
      `${'a'.repeat(310)}@example.com`,
      'not an address',
      'a@b@c',
    ]) {
      const response = await signUp(email, 'en');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ success: false });
    }
    await settle();
    expect(
      smtp.received.filter((r) => r.to.some((to) => to.startsWith('x@') || to.includes('victim') || to.length > 300)),
    ).toEqual([]);
    expect(refused).toHaveLength(5);
    expect((await store.newsletter.subscribers()).some((s) => s.email.includes('victim') || s.email.length > 300)).toBe(
      false,
    );
  });

  it('sends an article with List-Unsubscribe headers; a one-click POST with no cookie unsubscribes and answers 200, a GET only shows the button', async () => {
    const news = store.newsletter;
    const id = await confirmed(news, 'hugo@example.com', 'pt', time.now());
    const tokens = new Tokens((await news.setting('token_secret', 'unused'))!);
    const report = await sendArticle({
      store: news,
      postman,
      article: '/blog/tech/Git',
      mail: mailsFor(words, { en: 'Git', pt: 'Git, em português' }),
      unsubscribeUrl: (r) => unsubscribeUrl(tokens, BASE, r.id, r.lang),
      unsubscribeMailto: 'leave@example.com',
      host: 'example.com',
      rate: 1000,
      concurrency: 2,
    });
    expect(report.sent).toBeGreaterThanOrEqual(1);
    const message = mailsTo('hugo@example.com').find((m) => m.mail.subject === 'Git, em português')!;
    const headers = unfolded(message.raw);
    const url = new URL(/^List-Unsubscribe: <(https:[^>]+)>/m.exec(headers)![1]!);
    expect(url.pathname).toBe('/pt/newsletter/unsubscribe');
    expect(headers).toMatch(
      /^List-Unsubscribe: <https:\/\/example\.com\/pt\/newsletter\/unsubscribe\?token=\d+\.[\w-]{22}>, <mailto:leave@example\.com\?subject=unsubscribe>$/m,
    );
    expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    // The footer has the same link, in both parts.
    expect(message.mail.text).toContain(url.toString());
    expect(message.mail.html).toContain(url.toString().replaceAll('&', '&amp;'));
    expect(message.mail.html).not.toContain(UNSUBSCRIBE_SLOT);

    const shown = await app.inject({ url: `${url.pathname}${url.search}` });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('Cancelar subscrição');
    expect(await stateOf('hugo@example.com')).toBe('confirmed');
    // RFC 8058: a POST of List-Unsubscribe=One-Click to the URL, as a mail provider sends it (no
    // cookie, no anti-forgery header).
    const oneClick = await app.inject({
      method: 'POST',
      url: `${url.pathname}${url.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect(await stateOf('hugo@example.com')).toBe('unsubscribed');
    expect((await news.recipients('/blog/tech/Docker')).some((r) => r.id === id)).toBe(false);
    // Again: still 200, nothing to undo.
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `${url.pathname}${url.search}`,
          headers: { 'content-type': 'multipart/form-data; boundary=x' },
          payload: '--x\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--x--\r\n',
        })
      ).statusCode,
    ).toBe(200);
    // An unsubscribed address may come back, through a new confirmation (a day after the last one was mailed).
    time.advance(25 * HOUR);
    await signUp('hugo@example.com', 'en');
    expect((await smtp.arrival('hugo@example.com', 2)).at(-1)!.mail.subject).toBe(
      'Confirm your subscription to Duarte Salgueiro',
    );
    expect(await stateOf('hugo@example.com')).toBe('pending');
  });

  /**
   * A store of its own for a send run, as `site newsletter send` works on the database alone: this
   * server's background rounds of confirmation e-mails on `store` would race `confirmed()` for the
   * rows it adds (a round's last claim can land after its e-mail arrived).
   */
  const ownStore = async () => {
    const own = await open();
    onTestFinished(() => own.close());
    return own.newsletter;
  };

  it('a send stopped half way is finished by the next run, and nobody gets the article twice', async () => {
    const news = await ownStore();
    const addresses = Array.from({ length: 12 }, (_, i) => `reader${i}@example.org`);
    for (const [i, a] of addresses.entries()) await confirmed(news, a, i % 2 ? 'pt' : 'en', time.now());
    const stop = new AbortController();
    const base = {
      store: news,
      postman,
      article: '/blog/tech/Docker',
      mail: mailsFor(words, { en: 'Docker', pt: 'Docker, em português' }),
      unsubscribeUrl: () => `${BASE}/x`,
      host: 'example.com',
      concurrency: 2,
    };
    let seen = 0;
    const first = await sendArticle({
      ...base,
      rate: 200,
      signal: stop.signal,
      onProgress: (p) => {
        seen = p.sent;
        if (p.sent >= 5) stop.abort();
      },
    });
    expect(first.stopped).toBe('signal');
    expect(first.sent).toBeGreaterThanOrEqual(5);
    expect(first.sent).toBeLessThan(addresses.length);
    expect(seen).toBe(first.sent);
    // Run to its end under a signal, as the command runs it: each paced wait takes its listener away
    // again (more than ten left on it, and Node prints a leak warning across the progress bar).
    const watched = new AbortController();
    const second = await sendArticle({ ...base, rate: 1000, signal: watched.signal });
    expect(second.stopped).toBeUndefined();
    expect(getEventListeners(watched.signal, 'abort')).toHaveLength(0);
    // Everyone but those done by the first run; the rest of the store's confirmed subscribers too.
    expect(second.skipped).toBeGreaterThanOrEqual(first.sent);
    const third = await sendArticle({ ...base, rate: 1000 });
    expect(third.sent).toBe(0);
    for (const a of addresses)
      expect(
        mailsTo(a).filter((m) => m.mail.subject?.startsWith('Docker')),
        a,
      ).toHaveLength(1);
    // Readers of each language get their edition.
    expect(mailsTo('reader0@example.org')[0]!.mail.subject).toBe('Docker');
    expect(mailsTo('reader1@example.org')[0]!.mail.subject).toBe('Docker, em português');
  });

  it('tries a temporary (4xx) refusal again with backoff; records a permanent (5xx) one and sends that address nothing more', async () => {
    const news = await ownStore();
    await confirmed(news, 'busy@example.net', 'en', time.now());
    await confirmed(news, 'gone@example.net', 'en', time.now());
    let busy = 0;
    smtp.judge = (address) => {
      if (address === 'busy@example.net' && busy++ < 2) return { code: 451, message: 'Try again later' };
      if (address === 'gone@example.net') return { code: 550, message: 'No such user' };
      return undefined;
    };
    const base = {
      store: news,
      postman,
      unsubscribeUrl: () => `${BASE}/x`,
      host: 'example.com',
      rate: 1000,
      concurrency: 1,
      backoffMs: 20,
    };
    const report = await sendArticle({
      ...base,
      article: '/blog/tech/cookies',
      mail: mailsFor(words, { en: 'Cookies', pt: 'Cookies' }),
    });
    expect(smtp.refused.get('busy@example.net')).toBe(2);
    expect(mailsTo('busy@example.net').filter((m) => m.mail.subject?.startsWith('Cookies'))).toHaveLength(1);
    expect(report.failed).toBe(1);
    expect(smtp.refused.get('gone@example.net')).toBe(1);
    expect((await news.subscribers()).find((s) => s.email === 'gone@example.net')?.state).toBe('bounced');
    expect(await news.deliveryCounts('/blog/tech/cookies')).toMatchObject({ failed: 1 });
    // The next article does not go to the address that failed for good.
    await sendArticle({ ...base, article: '/blog/tech/Site', mail: mailsFor(words, { en: 'Site', pt: 'Site' }) });
    expect(smtp.refused.get('gone@example.net')).toBe(1);
  });

  it('answers a sign-up as usual while the mail server is down, and sends the confirmation once it is back', async () => {
    const port = await freePort();
    const away = openPostman({ smtpUrl: `smtp://127.0.0.1:${port}`, outboxDir: 'unused', from: FROM });
    const second = await buildApp({
      distDir: inject('distDir'),
      store,
      newsletter: { postman: away, baseUrl: BASE, root: PROJECT_ROOT, now: time.now, retryMs: 100 },
    });
    try {
      const response = await second.inject({
        method: 'POST',
        url: '/api/newsletter',
        headers: { cookie: 'XSRF-TOKEN=t', 'x-xsrf-token': 't', 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'ines@example.com', language: 'pt' }),
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ success: true });
      await new Promise((r) => setTimeout(r, 300));
      // The mail server comes back on that port.
      const back = await startSmtp({ port });
      try {
        const [arrived] = await back.arrival('ines@example.com', 1, 10_000);
        expect(arrived!.mail.subject).toBe('Confirma a tua subscrição de Duarte Salgueiro');
      } finally {
        await second.close();
        away.close();
        await back.stop();
      }
    } finally {
      await second.close();
      away.close();
    }
  });
});

/** Each reader language's message of a made-up article with these titles (the command renders the real ones). */
function mailsFor(w: SiteWords, titles: Record<Lang, string>): Record<Lang, MailContent> {
  const mail = (lang: Lang) =>
    articleMail({
      words: w,
      lang,
      siteUrl: BASE,
      title: titles[lang],
      description: 'A description.',
      date: '2 March 2026',
      paragraphs: [{ html: 'First <a href="https://example.com/a">paragraph</a>.', text: 'First paragraph.' }],
      url: `${BASE}/blog/x`,
      otherLanguage: false,
      unsubscribeUrl: UNSUBSCRIBE_SLOT,
    });
  return { en: mail('en'), pt: mail('pt') };
}

describe('without SMTP_URL', () => {
  it('writes each message to the outbox folder as an .eml file', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'site-outbox-'));
    try {
      const outbox = openPostman({ outboxDir: dir, from: FROM });
      expect(outbox.toOutbox).toBe(true);
      await outbox.send({
        to: 'jo@example.com',
        subject: 'Olá',
        html: '<p>Olá</p>',
        text: 'Olá',
        messageId: '<1@example.com>',
        unsubscribe: { url: `${BASE}/newsletter/unsubscribe?token=1.x` },
      });
      const files = (await readdir(dir)).filter((f) => f.endsWith('.eml'));
      expect(files).toHaveLength(1);
      const mail = await simpleParser(await readFile(path.join(dir, files[0]!)));
      expect(mail.subject).toBe('Olá');
      expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : '').toBe('jo@example.com');
      expect(unfolded(await readFile(path.join(dir, files[0]!)))).toMatch(
        /^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.each(['SQLite', 'PostgreSQL'])('the migration on %s', (name) => {
  it('keeps the subscribers stored before double opt-in, as confirmed, and says so', async () => {
    const lines: string[] = [];
    if (name === 'SQLite') {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'site-migrate-'));
      try {
        const file = path.join(dir, 'site.db');
        const db = new Database(file);
        db.exec(`CREATE TABLE view_count (id INTEGER PRIMARY KEY CHECK (id = 1), count INTEGER NOT NULL);
          INSERT INTO view_count (id, count) VALUES (1, 7);
          CREATE TABLE subscribers (email TEXT NOT NULL, email_key TEXT NOT NULL UNIQUE, lang TEXT NOT NULL CHECK (lang IN ('en', 'pt')), subscribed_at TEXT NOT NULL);
          INSERT INTO subscribers VALUES ('Old@Example.com', 'old@example.com', 'pt', '2025-01-01T00:00:00.000Z'), ('two@example.com', 'two@example.com', 'en', '2025-02-01T00:00:00.000Z');
          PRAGMA user_version = 1;`);
        db.close();
        const store = openSqliteStore(file, (line) => lines.push(line));
        await expectMigrated(store, lines);
        await store.close();
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    } else {
      const url = await freshPostgres();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (1);
        CREATE TABLE view_count (id INTEGER PRIMARY KEY CHECK (id = 1), count BIGINT NOT NULL); INSERT INTO view_count VALUES (1, 7);
        CREATE TABLE subscribers (email TEXT NOT NULL, email_key TEXT NOT NULL UNIQUE, lang TEXT NOT NULL CHECK (lang IN ('en', 'pt')), subscribed_at TIMESTAMPTZ NOT NULL DEFAULT now());
        INSERT INTO subscribers VALUES ('Old@Example.com', 'old@example.com', 'pt', '2025-01-01T00:00:00Z'), ('two@example.com', 'two@example.com', 'en', '2025-02-01T00:00:00Z');`);
      await client.end();
      const store = await openPostgresStore(url, { log: (line) => lines.push(line) });
      await expectMigrated(store, lines);
      await store.close();
    }
  });
});

async function expectMigrated(store: SiteStore, lines: string[]) {
  expect(lines).toEqual([
    'newsletter: migration 2 (double opt-in) kept 2 existing subscribers as confirmed (signed up before confirmation e-mails, consent "legacy")',
  ]);
  expect(await store.viewCount()).toBe(7);
  const rows = await store.newsletter.subscribers();
  expect(rows.map((r) => [r.email, r.lang, r.state, r.signedUpAt, r.confirmedAt, r.consent])).toEqual([
    ['Old@Example.com', 'pt', 'confirmed', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', 'legacy'],
    ['two@example.com', 'en', 'confirmed', '2025-02-01T00:00:00.000Z', '2025-02-01T00:00:00.000Z', 'legacy'],
  ]);
  expect((await store.newsletter.recipients('/blog/tech/Git')).map((r) => r.email)).toEqual([
    'Old@Example.com',
    'two@example.com',
  ]);
}
