/**
 * What an event is, from its description: a calendar that writes it as "Label: text" lines
 * (Source, Measures, Frequency, Usual effect, Why traders care: the demo does) gets them
 * laid out as a list; any other description is shown as the service wrote it.
 */
const LABELS = ['Source', 'Measures', 'Frequency', 'Usual effect', 'Why traders care'];

/** The description's labelled lines, or null when it is free text. */
function contextLines(description: string): [label: string, text: string][] | null {
  const out: [string, string][] = [];
  for (const line of description.split('\n')) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(': ');
    const label = line.slice(0, colon);
    if (colon <= 0 || !LABELS.includes(label)) return null;
    out.push([label, line.slice(colon + 2)]);
  }
  return out.length >= 2 ? out : null;
}

export function EventContext({ description }: { description: string | null | undefined }) {
  if (!description?.trim()) return null;
  const lines = contextLines(description);
  if (!lines) return <p className="description">{description}</p>;
  return (
    <dl className="description event-context" aria-label="About this event">
      {lines.map(([label, text]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{text}</dd>
        </div>
      ))}
    </dl>
  );
}
