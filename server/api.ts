import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { isLang, type Lang } from '../src/shared/lang';
import { NEWSLETTER_TEXT } from './messages';
import type { SiteStore } from './storage/store';
import { hasValidXsrf } from './xsrf';

export interface ApiOptions {
  store: SiteStore;
  /** Writes allowed per client and window (429 beyond). */
  rateLimit: { max: number; timeWindow: number };
}

const NewsletterRequest = z.object({
  email: z.string().max(320),
  /** The language of the page the form was on; taken from the referring page when absent. */
  language: z.string().optional(),
});

const EmailAddress = z.email();

function refererLang(referer: string | undefined): Lang {
  try {
    return referer && new URL(referer).pathname.startsWith('/pt') ? 'pt' : 'en';
  } catch {
    return 'en';
  }
}

/** The site's API (DESIGN.md): the visit counter and the newsletter. Search comes with its own issue. */
export const api: FastifyPluginAsync<ApiOptions> = async (app, { store, rateLimit }) => {
  const writes = { config: { rateLimit } };

  app.addHook('preHandler', async (request, reply) => {
    if (request.method === 'POST' && !hasValidXsrf(request)) {
      return reply.code(403).send({ error: 'Forbidden', message: 'missing or wrong anti-forgery token' });
    }
    return undefined;
  });

  app.post('/view_count/increment', writes, async (_request, reply) => {
    await store.incrementViews();
    return reply.code(204).send();
  });

  app.get('/view_count', async () => ({ count: await store.viewCount() }));

  app.post('/newsletter', writes, async (request, reply) => {
    const parsed = NewsletterRequest.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send({ error: 'Bad Request', message: 'expected {"email": string}' });
    const { email, language } = parsed.data;
    if (language !== undefined && !isLang(language)) return reply.code(400).send({ error: 'Bad Request', message: `unknown language "${language}"` });
    const lang = language ?? refererLang(request.headers.referer);
    const address = email.trim();
    if (!EmailAddress.safeParse(address).success) return { success: false, text: NEWSLETTER_TEXT.invalid };
    const outcome = await store.subscribe(address, lang);
    request.log.info({ outcome }, 'newsletter subscription');
    return { success: true, text: outcome === 'subscribed' ? NEWSLETTER_TEXT.subscribed : NEWSLETTER_TEXT.already };
  });
};
