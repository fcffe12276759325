import { createHash } from 'node:crypto';
import { z } from 'zod';

/** RFC 5321's limit on a path is 256 octets; 320 (64 local + @ + 255 domain) is the longest anyone asks. */
export const MAX_ADDRESS_LENGTH = 320;

const Email = z.email();

/**
 * The address as the newsletter keeps it, or undefined for anything that is not one address: over
 * 320 characters, holding a line break or another control character (which would let a value
 * write extra mail headers), or not in the shape of an address. Checked before anything reaches
 * the mail library.
 */
export function mailAddress(raw: string): string | undefined {
  const address = raw.trim();
  if (address.length === 0 || address.length > MAX_ADDRESS_LENGTH) return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f\u2028\u2029]/.test(address)) return undefined;
  return Email.safeParse(address).success ? address : undefined;
}

/** How an address is matched: case does not make another subscriber. */
export function addressKey(address: string): string {
  return address.trim().toLowerCase();
}

/**
 * What a suppression keeps of an address: a hash, so the list of people who asked to be forgotten
 * is not itself a list of their addresses. Salted with the site's secret, so it cannot be looked
 * up in a table of hashed addresses.
 */
export function suppressionHash(address: string, secret: string): string {
  return createHash('sha256')
    .update(`suppression:${secret}:${addressKey(address)}`)
    .digest('hex');
}
