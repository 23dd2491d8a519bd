/**
 * The admin page as plain server-rendered HTML: no script at all, one inline style allowed
 * by its hash in a strict CSP, every value escaped, and a meta refresh every 10 s.
 */
import { createHash } from 'node:crypto';
import type { AlertsToday } from '../../../shared/desk-alerts-today.js';
import { plainPhrase, withoutControls } from '../../../shared/plain-text.js';
import type { AdminSnapshot, DesktopRow, ReleaseRow } from './admin-view.js';
import { deliverySection } from '../replay/delivery-log-html.js';

const STYLE = `body{font:14px system-ui,sans-serif;margin:24px;color:#111;background:#fafafa}
h1{font-size:20px}h2{font-size:16px;margin-top:28px}table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:4px 10px;border-bottom:1px solid #ddd}th{background:#eee}
.ok{color:#065f46;font-weight:600}.bad{color:#b91c1c;font-weight:600}.warn{color:#92400e}
.muted{color:#666}form{margin-top:40px}input{font:inherit;padding:4px;width:420px}`;

export const ADMIN_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** Escaped for HTML, and without control characters (a trader's text is shown here). */
export function escapeHtml(s: string): string {
  return withoutControls(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

export const iso = (ms: number) => new Date(ms).toISOString().replace('.000', '');
export const ago = (ms: number, now: number) => {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  return s < 120 ? `${s} s ago` : s < 7200 ? `${Math.round(s / 60)} min ago` : iso(ms);
};

export function page(title: string, body: string, refresh: boolean): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
${refresh ? '<meta http-equiv="refresh" content="10">' : ''}<title>${escapeHtml(title)}</title>
<style>${STYLE}</style></head><body>${body}</body></html>`;
}

/** How late, in words a desk reads at a glance: 0.8 s, 42 s, 3 min. */
export function lateText(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.round(ms / 60_000)} min`;
}

function printsCell(a: AlertsToday | null): string {
  if (!a) return '<td class="muted">—</td>';
  if (a.count === 0) return '<td>none yet</td>';
  const unseen = a.unacknowledged ? ` · ${a.unacknowledged} not seen` : '';
  const spread = `${a.count} · p50 ${lateText(a.p50LateMs ?? 0)} · max ${lateText(a.maxLateMs ?? 0)}${unseen}`;
  const last = a.last
    ? `<br><span class="muted">last: ${escapeHtml(plainPhrase(a.last.title))} at ${escapeHtml(iso(a.last.printAt).slice(11, 16))}Z, ${escapeHtml(lateText(a.last.lateMs))} late</span>`
    : '';
  const worst = (a.maxLateMs ?? 0) > 60_000 || unseen ? ' class="warn"' : '';
  return `<td${worst}>${escapeHtml(spread)}${last}</td>`;
}

function desktopCells(d: DesktopRow, now: number): string {
  const state = d.connected
    ? `<span class="ok">connected</span> since ${escapeHtml(iso(d.since))}`
    : `<span class="bad">disconnected</span> since ${escapeHtml(ago(d.since, now))}`;
  const lag = `${d.lagEvents}${d.lagCapped ? '+' : ''} event${d.lagEvents === 1 ? '' : 's'}, ${d.lagSeconds} s`;
  return `<td>${state}</td><td>${escapeHtml(d.appVersion)}</td><td>${escapeHtml(d.os)}</td>
<td>${escapeHtml(d.node)}</td><td class="${d.lagEvents > 0 ? 'warn' : ''}">${escapeHtml(lag)}</td>
<td>${escapeHtml(ago(d.lastSeenAt, now))}</td>${printsCell(d.alertsToday)}`;
}

function releaseRow(r: ReleaseRow, now: number): string {
  const miss = r.wouldMiss.length
    ? r.wouldMiss
        .map((m) => `<span class="bad">${escapeHtml(m.user)}</span> (${escapeHtml(m.reason)})`)
        .join(', ')
    : '<span class="ok">none</span>';
  const inMin = Math.round((r.at - now) / 60_000);
  return `<tr><td>${escapeHtml(iso(r.at))} (in ${inMin} min)</td><td>${escapeHtml(r.name)}</td>
<td>${escapeHtml(r.countryCode)}</td><td>${escapeHtml(r.watchers.join(', ') || '—')}</td><td>${miss}</td></tr>`;
}

/** A node's store: ok, down and why, or taking webhooks on a weaker or unverified promise. */
function storeCell(n: AdminSnapshot['nodes'][number]): string {
  if (!n.storeOk) return `<span class="bad">down</span> ${escapeHtml(n.storeReason ?? '')}`;
  if (n.durability)
    return `<span class="bad">durability at risk</span> ${escapeHtml(n.durability)}`;
  return '<span class="ok">ok</span>';
}

export function renderAdminPage(s: AdminSnapshot, admin: string): string {
  const now = s.generatedAt;
  const traders = s.traders
    .map((t) => {
      if (t.desktops.length === 0)
        return `<tr><td>${escapeHtml(t.user)}</td><td class="muted" colspan="8">never connected</td></tr>`;
      return t.desktops
        .map(
          (d, i) =>
            `<tr><td>${i === 0 ? escapeHtml(t.user) : ''}</td><td class="muted">${escapeHtml(d.desktop)}</td>${desktopCells(d, now)}</tr>`,
        )
        .join('');
    })
    .join('');
  const nodes = s.nodes
    .map(
      (n) =>
        `<tr><td>${escapeHtml(n.node)}${n.stale ? ` <span class="bad">(silent${n.silentReason ? `: ${escapeHtml(n.silentReason)}` : ''})</span>` : ''}</td><td>${n.streams}</td>
<td>${n.ingestPerSecond}/s</td><td>${storeCell(n)}</td>
<td>${escapeHtml(ago(n.reportedAt, now))}</td></tr>`,
    )
    .join('');
  const deliveries = s.deliveries ? deliverySection(s.deliveries, now) : '';
  const releases = s.releasesError
    ? `<p class="bad">Releases unavailable: ${escapeHtml(s.releasesError)}</p>`
    : `<table><thead><tr><th>When</th><th>Release</th><th>Country</th><th>Watched by</th><th>Would miss it now</th></tr></thead>
<tbody>${s.releases.map((r) => releaseRow(r, now)).join('') || '<tr><td colspan="5" class="muted">no HIGH release in the next 24 h</td></tr>'}</tbody></table>`;
  const down = s.storeUnavailable;
  const storeDown = down
    ? `<p class="bad" data-store-unavailable>The desk's store does not answer: ${escapeHtml(down.reason)}${down.durability ? ` (durability: ${escapeHtml(down.durability)})` : ''}${down.storeLostAt ? ` · store lost at ${escapeHtml(iso(down.storeLostAt))}` : ''}. Shown: this node now, and ${down.knownAt === null ? 'nothing else yet (no page was built before)' : `the rest as of ${escapeHtml(iso(down.knownAt))}`}.</p>
<p>Open alerts, as this node saw them: ${down.openAlerts.map((t) => escapeHtml(t)).join('<br>') || 'none'}</p>`
    : '';
  const body = `<h1>Macrobell desk</h1>${storeDown}
<p class="muted">Signed in as ${escapeHtml(admin)} · stream head ${escapeHtml(s.head)} · ${escapeHtml(iso(now))} · lag threshold ${s.lagThresholdSeconds} s</p>
<h2>Next HIGH releases</h2>${releases}
<h2>Traders</h2><table><thead><tr><th>Trader</th><th>Desktop</th><th>State</th><th>App</th><th>OS</th><th>Node</th><th>Applied lag</th><th>Last seen</th><th>Prints alerted today (UTC)</th></tr></thead><tbody>${traders}</tbody></table>
<h2>Nodes</h2><table><thead><tr><th>Node</th><th>Streams</th><th>Ingest</th><th>Store</th><th>Reported</th></tr></thead><tbody>${nodes}</tbody></table>
${deliveries}`;
  return page('Macrobell desk', body, true);
}

export function renderLoginPage(message: string | null): string {
  const note = message ? `<p class="bad">${escapeHtml(message)}</p>` : '';
  return page(
    'Macrobell desk: sign in',
    `<h1>Macrobell desk</h1>${note}<form method="post" action="/admin/session">
<label>Admin token (from <code>relay admins add NAME</code>)<br>
<input type="password" name="token" autocomplete="off" required></label>
<button type="submit">Sign in</button></form>`,
    false,
  );
}
