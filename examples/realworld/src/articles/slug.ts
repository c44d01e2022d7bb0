/** An article's slug: its title in lower-case words joined by dashes, and a random suffix, so equal titles differ. */
import { randomBytes } from 'node:crypto';

export function slugOf(title: string): string {
  const words = title
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${words || 'article'}-${randomBytes(4).toString('hex')}`;
}
