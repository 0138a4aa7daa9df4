import { QueryClient } from '@tanstack/react-query';
import { MESSAGE_KINDS, messageGroup } from '@tradewind/contract/messages';
import { describe, expect, it } from 'vitest';
import { BROADCAST_CHANNEL, balancesQueryKey, unreadQueryKey } from '@/api/query-keys.ts';
import { applyRealtimeMessage } from '@/api/realtime-cache.ts';
import { safeUrl } from '@/ui/rich-text.tsx';

describe('message labels', () => {
  it('every kind of message has its group label in every language', async () => {
    const groups = [...new Set(MESSAGE_KINDS.map(messageGroup))];
    for (const language of ['en', 'de', 'es', 'fr', 'it', 'zh_CN', 'zh_TW']) {
      const { messages } = (await import(`@/features/messages/locales/${language}.json`)) as {
        messages: { kind: Record<string, string> };
      };
      expect(
        groups.filter((group) => !messages.kind[group]),
        language,
      ).toEqual([]);
    }
  });
});

describe('rich text links and images', () => {
  it('keeps http(s) and site-relative addresses, mailto for links only; drops script, data and protocol-relative ones', () => {
    expect(safeUrl('https://example.com/a', false)).toBe('https://example.com/a');
    expect(safeUrl('/news/cover.svg', true)).toBe('/news/cover.svg');
    expect(safeUrl('mailto:help@example.com', false)).toBe('mailto:help@example.com');
    expect(safeUrl('mailto:help@example.com', true)).toBeNull();
    for (const bad of [
      'javascript:alert(1)',
      ' JaVaScRiPt:alert(1)',
      'data:text/html,x',
      'vbscript:x',
      '//evil.example/x',
      'relative/path',
    ]) {
      expect(safeUrl(bad, false), bad).toBeNull();
      expect(safeUrl(bad, true), bad).toBeNull();
    }
  });
});

describe('new messages over the socket', () => {
  const seeded = () => {
    const client = new QueryClient();
    client.setQueryData(unreadQueryKey, { unread: 0 });
    client.setQueryData(['messages', 'list'], { pages: [], pageParams: [] });
    client.setQueryData(balancesQueryKey, { totalUsdt: '0' });
    return client;
  };
  const invalidated = (client: QueryClient, key: readonly unknown[]) =>
    client.getQueryState(key)?.isInvalidated ?? false;

  it('"message.new" on the user channel refreshes the badge and the list, nothing else', () => {
    const client = seeded();
    applyRealtimeMessage(client, 'user.10000001', {
      type: 'message.new',
      count: 1,
      message: { id: '1' },
    });
    expect(invalidated(client, unreadQueryKey)).toBe(true);
    expect(invalidated(client, ['messages', 'list'])).toBe(true);
    expect(invalidated(client, balancesQueryKey)).toBe(false);
  });

  it('a broadcast refreshes them too; other user events leave them', () => {
    const client = seeded();
    applyRealtimeMessage(client, 'user.10000001', { type: 'balance.changed' });
    expect(invalidated(client, unreadQueryKey)).toBe(false);
    applyRealtimeMessage(client, BROADCAST_CHANNEL, { type: 'message.new', broadcast: true });
    expect(invalidated(client, unreadQueryKey)).toBe(true);
  });
});
