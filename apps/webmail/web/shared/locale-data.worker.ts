/*
 * Makes one date and one number formatter for the language it is sent, then ends: see warm-locale-data.ts.
 */
self.onmessage = (event: MessageEvent<string>) => {
  new Intl.DateTimeFormat(event.data, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }).format(0);
  new Intl.NumberFormat(event.data, { maximumFractionDigits: 1 }).format(0);
  self.close();
};
