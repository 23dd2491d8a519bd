/**
 * The delivery log as HTML: a section of the admin page (the last hour) and its own page
 * at `/admin/log` with a plain GET form for the range (no script, as the rest).
 */
import { ago, escapeHtml, iso, page } from '../admin/admin-page.js';
import type { DeliveryLog, DeliveryRow } from './delivery-log.js';

type Range = DeliveryLog & { since: number; until: number };

function rowHtml(e: DeliveryRow, now: number): string {
  const all = e.desktops > 0 && e.appliedBy === e.desktops;
  const cls = all ? 'ok' : e.appliedBy === 0 && e.desktops > 0 ? 'bad' : 'warn';
  return `<tr><td>${escapeHtml(iso(e.receivedAt))} <span class="muted">(${escapeHtml(ago(e.receivedAt, now))})</span></td>
<td class="muted">${escapeHtml(e.id)}</td><td>${escapeHtml(e.type)}</td>
<td class="${cls}">${e.appliedBy} of ${e.desktops} desktops</td></tr>`;
}

function table(log: Range, now: number, empty: string): string {
  const rows = log.events.map((e) => rowHtml(e, now)).join('');
  return `<table><thead><tr><th>Received</th><th>Id</th><th>Type</th><th>Applied by</th></tr></thead>
<tbody>${rows || `<tr><td colspan="4" class="muted">${escapeHtml(empty)}</td></tr>`}</tbody></table>`;
}

/** The admin page's section: the last hour, newest first. */
export function deliverySection(log: Range, now: number): string {
  const more = log.truncated
    ? ' · <a href="/admin/log?since=1h">more in the delivery log</a>'
    : ' · <a href="/admin/log?since=1h">delivery log</a>';
  return `<h2>Delivery log, last hour</h2>
<p class="muted">What the relay received, newest first, and how many of the known desktops applied it${more}</p>
${table(log, now, 'nothing received in the last hour')}`;
}

const form = (since: string, until: string) =>
  `<form method="get" action="/admin/log"><label>Since <input name="since" value="${escapeHtml(since)}"></label>
<label>Until <input name="until" value="${escapeHtml(until)}"></label> <button type="submit">Show</button></form>`;

/** `/admin/log` for a browser given a range it cannot read: why, and the form again. */
export function renderLogError(message: string): string {
  const body = `<h1>Macrobell desk: delivery log</h1>
<p class="muted"><a href="/admin">Back to the desk</a></p><p class="bad">${escapeHtml(message)}</p>${form('1h', '')}`;
  return page('Macrobell desk: delivery log', body, false);
}

/** `/admin/log` for a browser: the range's rows in order, and a form for another range. */
export function renderLogPage(log: Range, now: number): string {
  const note = log.truncated
    ? '<p class="warn">More events in this range than listed: narrow it.</p>'
    : '';
  const body = `<h1>Macrobell desk: delivery log</h1>
<p class="muted"><a href="/admin">Back to the desk</a> · ${escapeHtml(iso(log.since))} to ${escapeHtml(iso(log.until))} · ${log.events.length} events</p>
${form(iso(log.since), iso(log.until))}
${note}${table(log, now, 'nothing received in this range')}`;
  return page('Macrobell desk: delivery log', body, false);
}
