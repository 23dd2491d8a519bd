/**
 * Settings → Live updates: print → shown over the last day (the time a surface
 * acknowledged), p50 and p99, by path; alerts sent that nothing acknowledged, apart.
 */
import type { FeedLatency } from '../../../../shared/domain.js';
import { durationLabel, pathLabel } from '../../lib/receipt.js';

export function FeedLatencyTable(props: { rows: FeedLatency[] }) {
  const rows = [...props.rows].sort((a, b) => b.count - a.count);
  return (
    <div data-testid="feed-latency">
      <h3>Print → alert, last 24 hours</h3>
      {rows.length === 0 ? (
        <p className="muted">No release has alerted in the last day.</p>
      ) : (
        <table className="latency-table">
          <thead>
            <tr>
              <th scope="col">Path</th>
              <th scope="col">Alerts</th>
              <th scope="col">p50</th>
              <th scope="col">p99</th>
              <th scope="col">Not acknowledged</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.path}>
                <th scope="row">{pathLabel(r.path)}</th>
                <td data-testid="latency-count">{r.count}</td>
                <td>{durationLabel(r.p50Ms)}</td>
                <td>{durationLabel(r.p99Ms)}</td>
                <td data-testid="latency-unacknowledged">{r.unacknowledged ?? 0}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
