/** The answer of Test connection, one line per scope (keys card and connection card). */
import type { ConnectionTestResult as Result } from '../../../../shared/domain.js';

export function ConnectionTestResult({ test }: { test: Result | null }) {
  if (!test) return null;
  return (
    <ul className="test-result" aria-label="Connection test">
      {(['calendar', 'news'] as const).map((s) => (
        <li key={s} className={test.scopes[s].ok ? 'ok' : 'bad'}>
          <strong>{s}:</strong> {test.scopes[s].message}
        </li>
      ))}
    </ul>
  );
}
