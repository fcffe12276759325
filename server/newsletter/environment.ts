import path from 'node:path';
import { OperationalError } from '../../src/diagnostics/failure';
import { mailAddress } from './address';
import { openPostman, type Postman } from './postman';

/** The newsletter's settings from the environment (docs/deploying.md, The newsletter). */
export interface MailEnvironment {
  SMTP_URL?: string | undefined;
  NEWSLETTER_FROM?: string | undefined;
}

/** The outbox folder used when SMTP_URL is not set: data/outbox under the project folder. */
export function outboxDir(root: string): string {
  return path.join(root, 'data', 'outbox');
}

/**
 * The sender: NEWSLETTER_FROM ("Name <address>" or an address), required with SMTP_URL, where a
 * made-up sender would be refused or land in spam; for the outbox, newsletter@ the site's host.
 */
export function senderOf(env: MailEnvironment, siteName: string, baseUrl: string): string {
  const given = env.NEWSLETTER_FROM?.trim();
  if (!given) {
    if (env.SMTP_URL) {
      throw new OperationalError(
        'SMTP_URL is set but NEWSLETTER_FROM is not: the newsletter has no sender',
        'Set NEWSLETTER_FROM to an address your mail server may send from, as "Name <address>" or just the address.',
      );
    }
    return `"${siteName.replace(/["\\\r\n]/g, '')}" <newsletter@${new URL(baseUrl).hostname}>`;
  }
  const address = /<([^<>]*)>\s*$/.exec(given)?.[1] ?? given;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a line break in the sender would write extra headers
  if (!mailAddress(address) || /[\u0000-\u001f]/.test(given)) {
    throw new OperationalError(
      `NEWSLETTER_FROM is not an address: ${JSON.stringify(given)}`,
      'Write it as "Name <address@example.com>" or address@example.com.',
    );
  }
  return given;
}

/** SMTP when SMTP_URL is set, the outbox folder otherwise. */
export function postmanFor(env: MailEnvironment, root: string, from: string, connections = 1): Postman {
  return openPostman({
    ...(env.SMTP_URL ? { smtpUrl: env.SMTP_URL } : {}),
    outboxDir: outboxDir(root),
    from,
    connections,
  });
}
