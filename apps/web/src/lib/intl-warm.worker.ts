// The worker intl-warm.ts starts (typed with the DOM library like the rest of src): formats a
// number, a percentage and a date in the page's language once, so that ICU's data for it is
// loaded, for the whole process, before the page formats its own; then ends.
self.onmessage = (event: MessageEvent<string>) => {
  const tag = event.data;
  new Intl.NumberFormat(tag, { useGrouping: true }).format(1234.5);
  new Intl.NumberFormat(tag, { style: 'percent' }).format(0.5);
  new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short' }).format(0);
  self.close();
};
