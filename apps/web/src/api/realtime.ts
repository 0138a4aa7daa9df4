import type { QueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { type MessageHandler, RealtimeClient } from '@/lib/realtime.ts';
import { getToken } from '@/lib/storage.ts';

/** `/ws` on the API's host: the page's own unless the build points the API elsewhere. */
function socketUrl(): string {
  const base = import.meta.env.VITE_API_BASE_URL
    ? new URL(import.meta.env.VITE_API_BASE_URL as string, window.location.href)
    : new URL(window.location.href);
  return `${base.protocol === 'https:' ? 'wss:' : 'ws:'}//${base.host}/ws`;
}

/** The app's one real-time connection. */
export const realtime = new RealtimeClient({
  url: socketUrl,
  createSocket: (url) => new WebSocket(url),
  getToken,
});

/**
 * Feeds the query cache from every message and keeps the connection's session in step with
 * the stored token. Called once by the app; returns the teardown.
 */
export function connectRealtime(queryClient: QueryClient): () => void {
  // The cache feed (and the schemas it parses with) loads with the first message, keeping
  // it out of the first page load; messages arriving meanwhile wait in order.
  let apply: ((channel: string, data: unknown) => void) | null = null;
  let waiting: [string, unknown][] | null = null;
  const stopSink = realtime.onMessage((data, channel) => {
    if (apply) return apply(channel, data);
    if (waiting) return void waiting.push([channel, data]);
    waiting = [[channel, data]];
    void import('./realtime-cache.ts').then(({ cacheFeed }) => {
      apply = cacheFeed(queryClient);
      for (const [name, payload] of waiting ?? []) apply(name, payload);
      waiting = null;
    });
  });
  // The user channel needs a listener for the connection to start on screens with no channel.
  const stopUser = realtime.onUserEvent(() => undefined);
  const onOnline = () => realtime.reconnectNow();
  const onVisible = () => document.visibilityState === 'visible' && realtime.reconnectNow();
  // Another tab signed in or out.
  const onStorage = (event: StorageEvent) => event.key === 'token' && realtime.syncAuth();
  window.addEventListener('online', onOnline);
  document.addEventListener('visibilitychange', onVisible);
  window.addEventListener('storage', onStorage);
  return () => {
    stopSink();
    stopUser();
    window.removeEventListener('online', onOnline);
    document.removeEventListener('visibilitychange', onVisible);
    window.removeEventListener('storage', onStorage);
  };
}

/**
 * Holds a channel while the component is mounted (null holds nothing). Messages reach the
 * query cache anyway; `onMessage` is for what the cache does not cover.
 */
export function useChannel(channel: string | null, onMessage?: MessageHandler): void {
  const handler = useRef(onMessage);
  useEffect(() => {
    handler.current = onMessage;
  });
  useEffect(() => {
    if (!channel) return;
    return realtime.subscribe(channel, (data, name) => handler.current?.(data, name));
  }, [channel]);
}

/** Holds several channels (a price list's tickers). */
export function useChannels(channels: readonly string[]): void {
  const key = [...new Set(channels)].sort().join('|');
  useEffect(() => {
    if (!key) return;
    const stops = key.split('|').map((channel) => realtime.subscribe(channel));
    return () => stops.forEach((stop) => stop());
  }, [key]);
}

/** The signed-in user's events (order placed or settled, balance changed). */
export function useUserEvents(onEvent: MessageHandler): void {
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  });
  useEffect(() => realtime.onUserEvent((data, channel) => handler.current(data, channel)), []);
}

/** True while the socket is open: screens poll instead when it is not. */
export function useRealtimeConnected(): boolean {
  return useSyncExternalStore(
    (listener) => realtime.onStateChange(listener),
    () => realtime.getState() === 'open',
  );
}
