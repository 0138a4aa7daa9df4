/** One server-sent event: its `data` lines joined by "\n", and its `event` name if it had one. */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/** An event larger than this means a broken or hostile stream: the parser refuses to buffer it. */
export const MAX_SSE_EVENT_CHARS = 1_000_000;

export class SseOverflowError extends Error {
  constructor() {
    super(`server-sent event larger than ${MAX_SSE_EVENT_CHARS} characters`);
  }
}

/**
 * A small parser for the text/event-stream format (WHATWG HTML §9.2.6): feed it decoded text
 * in chunks of any size; it returns the events each chunk completes. Lines end in LF, CRLF or
 * CR; `:` lines are comments (keep-alives); an event ends at a blank line and is dropped if it
 * carried no data. `retry` is ignored: reconnection is the client's own policy.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private dataChars = 0;
  private event = '';
  private id: string | undefined;
  /** A CR ended the last chunk: an LF opening the next one belongs to it. */
  private pendingCr = false;

  constructor(private readonly maxEventChars = MAX_SSE_EVENT_CHARS) {}

  push(chunk: string): SseEvent[] {
    let text = chunk;
    if (this.pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.pendingCr = false;
    this.buffer += text;
    const events: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const char = this.buffer.charCodeAt(i);
      if (char !== 10 && char !== 13) continue;
      this.line(this.buffer.slice(start, i), events);
      if (char === 13) {
        if (i + 1 === this.buffer.length) this.pendingCr = true;
        else if (this.buffer.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
    if (this.buffer.length + this.dataChars > this.maxEventChars) throw new SseOverflowError();
    return events;
  }

  private line(line: string, events: SseEvent[]): void {
    if (line === '') {
      if (this.data.length > 0)
        events.push({
          event: this.event || 'message',
          data: this.data.join('\n'),
          ...(this.id === undefined ? {} : { id: this.id }),
        });
      this.data = [];
      this.dataChars = 0;
      this.event = '';
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.data.push(value);
      this.dataChars += value.length + 1;
      if (this.dataChars > this.maxEventChars) throw new SseOverflowError();
    } else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
  }
}
