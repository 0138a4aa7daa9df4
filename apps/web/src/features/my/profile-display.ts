import type { Channel } from '@tradewind/contract/auth';
import { STORAGE_KEYS } from '@/lib/storage.ts';

/** An avatar's address under the image host the server announced (`imgBaseUrl`), or '' for the default picture. */
export function avatarUrl(avatar: string | null): string {
  if (!avatar) return '';
  const base = localStorage.getItem(STORAGE_KEYS.imgBaseUrl) ?? '/files';
  return `${base}/${avatar}`;
}

/** An address shown without giving it away over a shoulder: "an***@example.com", "+1 ***0123". */
export function maskContact(channel: Channel, address: string): string {
  if (channel === 'phone')
    return `${address.slice(0, Math.max(2, address.length - 8))} ***${address.slice(-4)}`;
  const [local = '', domain = ''] = address.split('@');
  return `${local.slice(0, 2)}***@${domain}`;
}
