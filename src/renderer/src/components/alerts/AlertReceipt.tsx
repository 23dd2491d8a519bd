/**
 * An alert's receipt in the history: one line ("+0.21 s after the print, via relay") and,
 * unfolded, each hop's time to the millisecond with its delay after the print.
 */
import type { AlertReceipt as Receipt } from '../../../../shared/domain.js';
import { durationLabel, hopTimeLabel, receiptHops, receiptSummary } from '../../lib/receipt.js';

export function AlertReceipt(props: { receipt: Receipt; zone: string; hourCycle: 'h12' | 'h23' }) {
  const { receipt, zone, hourCycle } = props;
  return (
    <details className="alert-receipt" data-testid="alert-receipt">
      <summary>{receiptSummary(receipt)}</summary>
      <table>
        <tbody>
          {receiptHops(receipt).map((h) => (
            <tr key={h.label}>
              <th scope="row">{h.label}</th>
              <td>{hopTimeLabel(h.at, zone, hourCycle)}</td>
              <td className="muted">
                {h.sincePrint === null
                  ? ''
                  : h.sincePrint < 0
                    ? `−${durationLabel(-h.sincePrint)}`
                    : `+${durationLabel(h.sincePrint)}`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
