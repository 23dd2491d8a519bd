/** Reading a served iCalendar back: unfold lines, one property map per VEVENT. */
export type VEvent = Map<string, string>;

export function parseIcs(text: string): { calendar: string[]; events: VEvent[] } {
  const lines = text.replace(/\r\n /g, '').split('\r\n');
  const events: VEvent[] = [];
  let current: VEvent | null = null;
  for (const line of lines) {
    if (line === 'BEGIN:VEVENT') current = new Map();
    else if (line === 'END:VEVENT') {
      if (current) events.push(current);
      current = null;
    } else if (current) {
      const i = line.indexOf(':');
      current.set(line.slice(0, i), line.slice(i + 1));
    }
  }
  return { calendar: lines, events };
}
