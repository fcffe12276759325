import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a token allows: confirming a sign-up, or leaving the list. One never serves for the other. */
export type TokenPurpose = 'confirm' | 'leave';

/** 128 bits of HMAC-SHA256, base64url: 22 characters. */
const MAC_LENGTH = 16;
const TOKEN = /^([1-9][0-9]{0,14})\.([A-Za-z0-9_-]{22})$/;

/**
 * The signed links of the newsletter's e-mails: `<subscriber id>.<mac>`, the MAC over the purpose,
 * the id and, for a confirmation, the nonce of the sign-up it confirms (a later sign-up gets a new
 * one, and the removal of an expired sign-up takes it away, so an old link stops working).
 */
export class Tokens {
  constructor(private readonly secret: string) {}

  sign(purpose: TokenPurpose, id: number, nonce = ''): string {
    return `${id}.${this.mac(purpose, id, nonce).toString('base64url')}`;
  }

  /** The subscriber id a token names, if it has the shape of one; its MAC is checked by `verify`. */
  static subscriberOf(token: unknown): number | undefined {
    if (typeof token !== 'string') return undefined;
    const match = TOKEN.exec(token);
    return match ? Number(match[1]) : undefined;
  }

  /** True when the token was signed for this purpose, subscriber and nonce; compared in constant time. */
  verify(token: string, purpose: TokenPurpose, id: number, nonce = ''): boolean {
    const match = TOKEN.exec(token);
    if (!match || Number(match[1]) !== id) return false;
    const given = Buffer.from(match[2]!, 'base64url');
    const expected = this.mac(purpose, id, nonce);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private mac(purpose: TokenPurpose, id: number, nonce: string): Buffer {
    return createHmac('sha256', this.secret).update(`${purpose}\n${id}\n${nonce}`).digest().subarray(0, MAC_LENGTH);
  }
}
