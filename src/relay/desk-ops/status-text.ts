/** `relay status` as plain text lines, from the admin page's JSON. */
import type { AdminSnapshot } from './admin-view.js';

const iso = (ms: number) => new Date(ms).toISOString().replace('.000', '');

export function formatStatus(s: AdminSnapshot): string[] {
  const lines = [`Desk at ${iso(s.generatedAt)} · stream head ${s.head}`, '', 'Traders:'];
  for (const t of s.traders) {
    if (t.desktops.length === 0) lines.push(`  ${t.user.padEnd(20)} never connected`);
    for (const d of t.desktops) {
      const state = d.connected
        ? `connected since ${iso(d.since)}`
        : `DISCONNECTED since ${iso(d.since)}`;
      lines.push(
        `  ${t.user.padEnd(20)} ${state}  app ${d.appVersion}  node ${d.node}  ` +
          `lag ${d.lagEvents}${d.lagCapped ? '+' : ''} events / ${d.lagSeconds} s  ` +
          `last seen ${iso(d.lastSeenAt)}`,
      );
    }
  }
  lines.push('', 'Nodes:');
  for (const n of s.nodes)
    lines.push(
      `  ${n.node.padEnd(28)} ${n.streams} streams  ${n.ingestPerSecond}/s  store ${n.storeOk ? 'ok' : `DOWN (${n.storeReason ?? ''})`}${n.stale ? '  SILENT' : ''}`,
    );
  lines.push('', 'Next HIGH releases:');
  if (s.releasesError) lines.push(`  unavailable: ${s.releasesError}`);
  else if (s.releases.length === 0) lines.push('  none in the next 24 h');
  for (const r of s.releases) {
    const miss = r.wouldMiss.map((m) => `${m.user} (${m.reason})`).join(', ') || 'nobody';
    lines.push(`  ${iso(r.at)}  ${r.name} (${r.countryCode})  would miss: ${miss}`);
  }
  return lines;
}
