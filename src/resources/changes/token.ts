/**
 * Sync tokens are opaque to clients: a position in the changes feed (`record_changes.token`),
 * versioned so that its form can change without a client noticing.
 */
const PREFIX = 'c1.';

export function encodeSyncToken(position: number): string {
  return `${PREFIX}${position.toString(36)}`;
}

/** The position a token names; `undefined` when it is not one this feed handed out. */
export function decodeSyncToken(token: string): number | undefined {
  if (!token.startsWith(PREFIX)) return undefined;
  const digits = token.slice(PREFIX.length);
  if (!/^[0-9a-z]{1,11}$/.test(digits)) return undefined;
  const position = parseInt(digits, 36);
  return Number.isSafeInteger(position) ? position : undefined;
}
