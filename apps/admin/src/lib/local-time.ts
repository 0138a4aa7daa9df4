/** `<input type="datetime-local">` speaks local time without a zone; the API speaks ISO instants. */
export function toLocalInput(at: string | number): string {
  const ms = typeof at === 'number' ? at : Date.parse(at);
  return new Date(ms - new Date(ms).getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

export function fromLocalInput(value: string): string {
  return new Date(value).toISOString();
}
