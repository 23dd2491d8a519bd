/**
 * `relay status` as plain text lines, from the admin page's JSON. Every line is stripped
 * of control characters: a desktop's report (a print's title) is a trader's text.
 */
import type { AlertsToday } from '../../../shared/desk-alerts-today.js';
import { plainPhrase, withoutControls } from '../../../shared/plain-text.js';
import { lateText } from './admin-page.js';
import type { AdminSnapshot } from './admin-view.js';

const iso = (ms: number) => new Date(ms).toISOString().replace('.000', '');

/** "prints today 3 (p50 0.8 s, max 4.0 s; last US CPI at 13:30Z, 0.8 s late)". */
function printsText(a: AlertsToday | null): string {
  if (!a) return 'prints today: not reported';
  if (a.count === 0) return 'prints today 0';
  const last = a.last
    ? `; last ${plainPhrase(a.last.title)} at ${iso(a.last.printAt).slice(11, 16)}Z, ${lateText(a.last.lateMs)} late`
    : '';
  const unseen = a.unacknowledged ? `, ${a.unacknowledged} not seen` : '';
  return `prints today ${a.count} (p50 ${lateText(a.p50LateMs ?? 0)}, max ${lateText(a.maxLateMs ?? 0)}${unseen}${last})`;
}

function storeText(n: AdminSnapshot['nodes'][number]): string {
  if (!n.storeOk) return `DOWN (${n.storeReason ?? ''})`;
  return n.durability ? `DURABILITY AT RISK (${n.durability})` : 'ok';
}

export function formatStatus(s: AdminSnapshot): string[] {
  const lines = [`Desk at ${iso(s.generatedAt)} · stream head ${s.head}`];
  const down = s.storeUnavailable;
  if (down)
    lines.push(
      `STORE UNAVAILABLE: ${down.reason}${down.durability ? ` (durability: ${down.durability})` : ''}${down.storeLostAt ? `; store lost at ${iso(down.storeLostAt)}` : ''}`,
      `  shown: this node now; ${down.knownAt === null ? 'nothing else known yet' : `the rest as of ${iso(down.knownAt)}`}`,
      ...down.openAlerts.map((t) => `  open alert: ${t}`),
    );
  lines.push('', 'Traders:');
  for (const t of s.traders) {
    if (t.desktops.length === 0) lines.push(`  ${t.user.padEnd(20)} never connected`);
    for (const d of t.desktops) {
      const state = d.connected
        ? `connected since ${iso(d.since)}`
        : `DISCONNECTED since ${iso(d.since)}`;
      lines.push(
        `  ${t.user.padEnd(20)} ${state}  app ${d.appVersion}  node ${d.node}  ` +
          `lag ${d.lagEvents}${d.lagCapped ? '+' : ''} events / ${d.lagSeconds} s  ` +
          `last seen ${iso(d.lastSeenAt)}  ${printsText(d.alertsToday)}`,
      );
    }
  }
  lines.push('', 'Nodes:');
  for (const n of s.nodes)
    lines.push(
      `  ${n.node.padEnd(28)} ${n.streams} streams  ${n.ingestPerSecond}/s  store ${storeText(n)}${n.stale ? `  SILENT${n.silentReason ? ` (${n.silentReason})` : ''}` : ''}`,
    );
  lines.push('', 'Next HIGH releases:');
  if (s.releasesError) lines.push(`  unavailable: ${s.releasesError}`);
  else if (s.releases.length === 0) lines.push('  none in the next 24 h');
  for (const r of s.releases) {
    const miss = r.wouldMiss.map((m) => `${m.user} (${m.reason})`).join(', ') || 'nobody';
    lines.push(`  ${iso(r.at)}  ${r.name} (${r.countryCode})  would miss: ${miss}`);
  }
  return lines.map(withoutControls);
}
