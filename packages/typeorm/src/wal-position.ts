/**
 * PostgreSQL write-ahead-log positions (`pg_lsn`, spelled `16/B374D848`) as numbers the replica router compares, and
 * back as the text a consistency token carries.
 */

/** The position `text` spells, or undefined when it is not one (a token a client made up, a null position). */
export function parseWalPosition(text: unknown): bigint | undefined {
  if (typeof text !== 'string') return undefined;
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text.trim());
  if (!match) return undefined;
  return (BigInt(`0x${match[1]}`) << 32n) + BigInt(`0x${match[2]}`);
}

/** The position as PostgreSQL spells it (`16/B374D848`). */
export function formatWalPosition(position: bigint): string {
  return `${(position >> 32n).toString(16).toUpperCase()}/${(position & 0xffffffffn).toString(16).toUpperCase()}`;
}
