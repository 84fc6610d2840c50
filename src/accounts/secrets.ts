import { createHash, randomBytes } from 'node:crypto';

/**
 * Session cookies and API tokens are 256 random bits; only their SHA-256 is stored. A fast hash is enough
 * for a secret nobody chose (a password needs scrypt because people choose guessable ones).
 */
export function newSecret(prefix: string): { secret: string; hash: string } {
  const secret = `${prefix}${randomBytes(32).toString('base64url')}`;
  return { secret, hash: hashSecret(secret) };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export const TOKEN_PREFIX = 'forja_';
export const SESSION_PREFIX = 'fs_';
