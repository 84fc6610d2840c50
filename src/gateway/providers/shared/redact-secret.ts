/**
 * Removes a secret from text that may end up in an error or a log. Providers sometimes echo the key
 * they refused (partly masked or not) in a 401 body; we never pass that on.
 */
export function redactSecret(text: string, secret: string | undefined): string {
  if (secret === undefined || secret.length < 4) return text;
  return text.split(secret).join('[redacted]');
}
