import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { simpleParser } from 'mailparser';

export interface OutboxPageOptions {
  /** The outbox folder (data/outbox). */
  dir: string;
}

/** The page's address in `site dev`. */
export const OUTBOX_URL = '/__dev/outbox';

/** The newest messages listed; an outbox grows with every test sign-up. */
const LISTED = 200;
const EML = /^[\w.-]+\.eml$/;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `:root{color-scheme:light dark;font-family:system-ui,sans-serif}
body{margin:0 auto;max-width:72rem;padding:1.5rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid #8884;vertical-align:top}
td.when{white-space:nowrap}p.note{color:GrayText}`;

/**
 * `site dev`'s view of the outbox: the messages the newsletter wrote instead of sending them
 * (no SMTP_URL), newest first, each openable as the reader would see it or as its raw .eml.
 */
export const outboxPage: FastifyPluginAsync<OutboxPageOptions> = async (app, { dir }) => {
  app.get(OUTBOX_URL, async (_request, reply) => {
    const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => EML.test(n));
    names.sort().reverse();
    const rows = await Promise.all(
      names.slice(0, LISTED).map(async (name) => {
        const file = path.join(dir, name);
        const [mail, info] = await Promise.all([simpleParser(await readFile(file)), stat(file)]);
        const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(', ') : (mail.to?.text ?? '');
        const when = (mail.date ?? info.mtime).toISOString().replace('T', ' ').slice(0, 19);
        const link = `${OUTBOX_URL}/${encodeURIComponent(name)}`;
        return `<tr><td class="when">${when}</td><td>${escapeHtml(to)}</td><td><a href="${link}">${escapeHtml(mail.subject ?? '(no subject)')}</a></td><td><a href="${link}?part=text">text</a> · <a href="${link}?part=raw">.eml</a></td></tr>`;
      }),
    );
    const body =
      rows.length === 0
        ? `<p>No messages yet. Sign up in the footer of any page: the confirmation e-mail appears here.</p>`
        : `<table><thead><tr><th>Written (UTC)</th><th>To</th><th>Subject</th><th>Also as</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
    const more = names.length > LISTED ? `<p class="note">The newest ${LISTED} of ${names.length} are listed.</p>` : '';
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(
        `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Outbox · site dev</title><style>${STYLE}</style></head><body><h1>Outbox</h1><p class="note">Without SMTP_URL the newsletter writes its e-mails to ${escapeHtml(dir)} instead of sending them.</p>${body}${more}</body></html>`,
      );
  });

  app.get(`${OUTBOX_URL}/:name`, async (request, reply) => {
    const { name } = request.params as { name: string };
    const part = (request.query as { part?: string }).part;
    if (!EML.test(name)) return reply.code(404).send({ error: 'Not Found', message: 'no such message' });
    const raw = await readFile(path.join(dir, name)).catch(() => undefined);
    if (!raw) return reply.code(404).send({ error: 'Not Found', message: 'no such message' });
    if (part === 'raw') return reply.type('text/plain; charset=utf-8').send(raw);
    const mail = await simpleParser(raw);
    if (part === 'text' || !mail.html) return reply.type('text/plain; charset=utf-8').send(mail.text ?? '');
    return reply.type('text/html; charset=utf-8').send(mail.html);
  });
};
