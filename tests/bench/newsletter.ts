// The newsletter's send: `site newsletter send` of a real article to N confirmed subscribers (half
// English, half Portuguese readers) on a loopback SMTP server, as the owner runs it. Reports
// messages a second (sending alone, from the command's summary line, and the whole command with its
// site load) and the command's peak memory. Run alone: node --import tsx tests/bench/newsletter.ts
// [--subscribers N] [--rate R]; `npm run bench` runs it too (--no-newsletter leaves it out).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { SMTPServer } from 'smtp-server';
import { openSqliteStore } from '../../server/storage/sqlite';
import { PROJECT_ROOT } from '../support/content';
import { timed } from './measure';

export interface NewsletterFigures {
  subscribers: number;
  article: string;
  /** Messages the SMTP server accepted. */
  received: number;
  /** Sending alone, as the command's summary line reports it. */
  sendSeconds: number;
  messagesPerSecond: number;
  /** The whole command: site load, rendering, sending. */
  commandSeconds: number;
  peakRssMb: number;
}

const ARTICLE = '/blog/tech/Git';

/** A loopback SMTP server that counts and drops what it accepts. */
async function countingSmtp(): Promise<{ url: string; received: () => number; stop: () => Promise<void> }> {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    closeTimeout: 50,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        received++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () => received,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export async function newsletterFigures(subscribers: number, rate = 10_000): Promise<NewsletterFigures> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'site-bench-newsletter-'));
  const smtp = await countingSmtp();
  try {
    const db = path.join(dir, 'site.db');
    await openSqliteStore(db, () => undefined).close();
    const raw = new Database(db);
    const insert = raw.prepare(
      "INSERT INTO subscribers (email, email_key, lang, state, signed_up_at, confirmed_at, consent, nonce) VALUES (?, ?, ?, 'confirmed', ?, ?, 'bench', '')",
    );
    const at = new Date().toISOString();
    raw.transaction(() => {
      for (let i = 0; i < subscribers; i++)
        insert.run(`reader${i}@example.com`, `reader${i}@example.com`, i % 2 ? 'pt' : 'en', at, at);
    })();
    raw.close();
    const result = await timed(
      'node',
      [path.join(PROJECT_ROOT, 'bin', 'site'), 'newsletter', 'send', ARTICLE, '--db', db, '--rate', String(rate)],
      {
        cwd: PROJECT_ROOT,
        env: {
          SMTP_URL: smtp.url,
          NEWSLETTER_FROM: 'Bench <bench@example.com>',
          NEWSLETTER_SECRET: 'b'.repeat(40),
          CI: '1',
        },
      },
    );
    const line = /sent ([\d,]+).*?, ([\d.]+) s, ([\d.]+) messages\/s/.exec(result.stdout);
    if (!line) throw new Error(`no summary line in:\n${result.stdout}`);
    const sent = Number(line[1]!.replace(/,/g, ''));
    if (sent !== subscribers || smtp.received() !== subscribers)
      throw new Error(`sent ${sent}, received ${smtp.received()}, of ${subscribers}`);
    return {
      subscribers,
      article: ARTICLE,
      received: smtp.received(),
      sendSeconds: Number(line[2]),
      messagesPerSecond: Number(line[3]),
      commandSeconds: result.milliseconds / 1000,
      peakRssMb: result.peakRssMb,
    };
  } finally {
    await smtp.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The figures as rows of the bench's table. */
export function newsletterRows(f: NewsletterFigures): [string, string, string][] {
  return [
    [
      `site newsletter send, ${f.subscribers.toLocaleString('en-GB')} subscribers (loopback SMTP)`,
      `${Math.round(f.messagesPerSecond)} msg/s`,
      `sending ${f.sendSeconds.toFixed(1)} s; whole command ${f.commandSeconds.toFixed(1)} s (${Math.round(f.subscribers / f.commandSeconds)} msg/s); peak ${f.peakRssMb.toFixed(0)} MB`,
    ],
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { subscribers: { type: 'string', default: '10000' }, rate: { type: 'string', default: '10000' } },
  });
  const figures = await newsletterFigures(Number(values.subscribers), Number(values.rate));
  for (const row of newsletterRows(figures)) console.log(row.join('  '));
  console.log(JSON.stringify(figures));
}
