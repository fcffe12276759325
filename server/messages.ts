/** The newsletter's answers, in both languages (docs/api.md, Endpoints: the client shows text[lang]). */
export const NEWSLETTER_TEXT = {
  /** The one answer to every valid address, whether new, pending, confirmed or unsubscribed. */
  checkInbox: {
    en: 'Almost there: check your inbox and confirm with the link in the e-mail.',
    pt: 'Quase feito: vê o teu e-mail e confirma com o link da mensagem.',
  },
  invalid: { en: 'That e-mail address does not look right.', pt: 'Esse endereço de e-mail não parece correto.' },
} as const;
