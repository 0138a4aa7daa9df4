import WebSocket from 'ws';

/** A socket to `url`, open, and `next`: the frames it receives, in order, each parsed once. */
export function openSocket(
  url: string,
): Promise<{ socket: WebSocket; next: () => Promise<Record<string, unknown>> }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const queue: Record<string, unknown>[] = [];
    const waiters: ((frame: Record<string, unknown>) => void)[] = [];
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Record<string, unknown>;
      const waiter = waiters.shift();
      if (waiter) waiter(frame);
      else queue.push(frame);
    });
    const next = () =>
      new Promise<Record<string, unknown>>((r) =>
        queue.length ? r(queue.shift() as Record<string, unknown>) : waiters.push(r),
      );
    socket.once('open', () => resolve({ socket, next }));
    socket.once('error', reject);
  });
}
