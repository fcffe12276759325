import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTransport } from 'nodemailer';
import { parseConnectionUrl } from 'nodemailer/lib/shared';
import { OperationalError } from '../../src/diagnostics/failure';

/** One e-mail, ready to hand over: the addresses are checked ones (address.ts). */
export interface OutgoingMail {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** `<...@host>`; given so that a delivery is recorded under the id it was sent with. */
  messageId: string;
  /** The RFC 8058 one-click URL (https) and, where configured, a mailto address. */
  unsubscribe?: { url: string; mailto?: string };
}

/** What the mail server (or the outbox) said on accepting a message. */
export interface Accepted {
  messageId: string;
  response: string;
}

/**
 * A message that was not accepted. `temporary`: a 4xx answer, worth trying again later;
 * `permanent`: a 5xx answer, the address should get nothing more; `unreachable`: no answer at all
 * (the server down, refused, timed out), which says nothing of the address.
 */
export class SendFailure extends Error {
  constructor(
    readonly kind: 'temporary' | 'permanent' | 'unreachable',
    message: string,
    readonly responseCode?: number,
  ) {
    super(message);
    this.name = 'SendFailure';
  }
}

export interface Postman {
  /** Where the mail goes, for the owner: "smtp://mail.example.com:587" or "the outbox data/outbox". */
  readonly where: string;
  /** True when messages are written to the outbox folder rather than sent. */
  readonly toOutbox: boolean;
  send(mail: OutgoingMail): Promise<Accepted>;
  close(): void;
}

export interface PostmanOptions {
  /** SMTP_URL: smtp://user:pass@host:port or smtps://...; without it, the outbox folder. */
  smtpUrl?: string;
  /** data/outbox by default. */
  outboxDir: string;
  /** The sender, NEWSLETTER_FROM. */
  from: string;
  /** SMTP connections kept open at once (a pool); 1 by default. */
  connections?: number;
}

/** A Message-ID for a message about to be sent from the site's host. */
export function newMessageId(host: string): string {
  return `<${Date.now().toString(36)}.${randomBytes(9).toString('base64url')}@${host}>`;
}

/** The headers every newsletter message carries (RFC 2369 and RFC 8058). */
function listHeaders(unsubscribe: OutgoingMail['unsubscribe']): Record<string, string> {
  if (!unsubscribe) return {};
  const targets = [
    `<${unsubscribe.url}>`,
    ...(unsubscribe.mailto ? [`<mailto:${unsubscribe.mailto}?subject=unsubscribe>`] : []),
  ];
  return { 'List-Unsubscribe': targets.join(', '), 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/** The message as nodemailer takes it. */
function messageOf(from: string, mail: OutgoingMail) {
  return {
    from,
    to: mail.to,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    messageId: mail.messageId,
    headers: listHeaders(mail.unsubscribe),
    // Nothing in a message may make nodemailer read a file or fetch a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

function failureOf(error: unknown): SendFailure {
  const e = error as { responseCode?: number; code?: string; message?: string; response?: string };
  const said = e.response ?? e.message ?? String(error);
  if (typeof e.responseCode === 'number' && e.responseCode >= 500)
    return new SendFailure('permanent', said, e.responseCode);
  if (typeof e.responseCode === 'number' && e.responseCode >= 400)
    return new SendFailure('temporary', said, e.responseCode);
  return new SendFailure('unreachable', `${e.code ? `${e.code}: ` : ''}${e.message ?? String(error)}`);
}

/**
 * The newsletter's way out: nodemailer over SMTP when SMTP_URL is set, otherwise an outbox folder
 * of `.eml` files (one per message, written whole or not at all), so that a fresh clone runs
 * without a mail server and the owner can open what would have been sent.
 */
export function openPostman(options: PostmanOptions): Postman {
  const headersFor = (mail: OutgoingMail) => messageOf(options.from, mail);
  if (options.smtpUrl) {
    let settings: ReturnType<typeof parseConnectionUrl>;
    try {
      const url = new URL(options.smtpUrl);
      if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new Error(`the scheme is ${url.protocol}`);
      settings = parseConnectionUrl(options.smtpUrl);
    } catch (error) {
      throw new OperationalError(
        `SMTP_URL is not an smtp:// or smtps:// URL (${error instanceof Error ? error.message : String(error)})`,
        'Write it as smtp://user:password@host:587 (or smtps:// for port 465), with special characters of the password percent-encoded.',
      );
    }
    const connections = options.connections ?? 1;
    const transport = createTransport({
      ...settings,
      pool: true,
      maxConnections: connections,
      maxMessages: Number.POSITIVE_INFINITY,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    const url = new URL(options.smtpUrl);
    return {
      where: `${url.protocol}//${url.host}`,
      toOutbox: false,
      async send(mail) {
        try {
          const info = await transport.sendMail(headersFor(mail));
          return { messageId: info.messageId ?? mail.messageId, response: String(info.response ?? '') };
        } catch (error) {
          throw failureOf(error);
        }
      },
      close: () => transport.close(),
    };
  }
  const dir = path.resolve(options.outboxDir);
  let made: Promise<unknown> | undefined;
  let count = 0;
  return {
    where: `the outbox ${path.relative(process.cwd(), dir) || dir}`,
    toOutbox: true,
    async send(mail) {
      made ??= mkdir(dir, { recursive: true });
      await made;
      // Named by time, so a listing sorts by it; the count and pid keep names of one millisecond apart.
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}-${++count}.eml`;
      await writeEml(path.join(dir, name), options.from, mail);
      return { messageId: mail.messageId, response: `written to ${name}` };
    },
    close: () => undefined,
  };
}

const composer = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

/** The message as an .eml file (RFC 5322), written whole or not at all. */
export async function writeEml(file: string, from: string, mail: OutgoingMail): Promise<void> {
  const info = await composer.sendMail(messageOf(from, mail));
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.tmp`);
  await writeFile(temporary, info.message as Buffer);
  await rename(temporary, file);
}
