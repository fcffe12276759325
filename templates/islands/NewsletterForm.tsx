import { type FormEvent, useState } from 'react';
import { postJson } from '../../src/client/api';
import type { Lang } from '../../src/shared/lang';

export interface NewsletterFormProps {
  lang: Lang;
  label: string;
  placeholder: string;
  submit: string;
  /** 'Invalid request.' / 'Pedido inválido.': any failure (docs/product.md, When something fails). */
  invalid: string;
  /** Said to screen readers only, for a press with the field empty. */
  empty: string;
}

type Message = { tone: 'success' | 'failure' | 'empty'; text: string } | null;

/**
 * The footer's sign-up. Nothing is sent for an empty field and nothing is shown (docs/product.md, Input rules),
 * but a screen reader, which cannot see that nothing happened, hears "enter your e-mail address"
 * (a visually hidden status). The address is checked by the server, whose text is shown in light
 * green on success and in red when success is not true; any other failure (network, 4xx, 5xx)
 * shows 'Invalid request.' in red.
 */
export function NewsletterForm({ lang, label, placeholder, submit, invalid, empty }: NewsletterFormProps) {
  const [message, setMessage] = useState<Message>(null);
  const [sending, setSending] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Read from the form, not kept in state: an address typed before the island was hydrated counts too.
    const email = String(new FormData(event.currentTarget).get('email') ?? '');
    if (email === '') {
      setMessage({ tone: 'empty', text: empty });
      return;
    }
    if (sending) return;
    setSending(true);
    try {
      const response = await postJson('/api/newsletter', { email, language: lang });
      if (!response.ok) throw new Error(String(response.status));
      const body = (await response.json()) as { success?: unknown; text?: Partial<Record<Lang, string>> };
      const text = body.text?.[lang];
      if (body.success === true) setMessage({ tone: 'success', text: text ?? '' });
      else setMessage({ tone: 'failure', text: text ?? invalid });
    } catch {
      setMessage({ tone: 'failure', text: invalid });
    } finally {
      setSending(false);
    }
  };

  return (
    <form className="newsletter__form" method="post" action="/api/newsletter" noValidate onSubmit={onSubmit}>
      <label className="visually-hidden" htmlFor="newsletter-email">
        {label}
      </label>
      <input id="newsletter-email" name="email" type="email" autoComplete="email" placeholder={placeholder} />
      <button type="submit" disabled={sending}>
        {submit}
      </button>
      <p
        className={`newsletter__message${message && message.tone !== 'empty' ? ` newsletter__message--${message.tone}` : ''}`}
        role="status"
      >
        {message?.tone === 'empty' ? <span className="visually-hidden">{message.text}</span> : message?.text}
      </p>
    </form>
  );
}
