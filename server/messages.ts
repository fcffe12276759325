/** The newsletter's answers, in both languages (spec section 7: the client shows text[lang]). */
export const NEWSLETTER_TEXT = {
  subscribed: { en: 'Thank you! You will hear from me when there is something new.', pt: 'Obrigado! Vais saber de mim quando houver novidades.' },
  already: { en: 'You are already subscribed. Thank you!', pt: 'Já estavas subscrito. Obrigado!' },
  invalid: { en: 'That e-mail address does not look right.', pt: 'Esse endereço de e-mail não parece correto.' },
} as const;
