/**
 * Issue #44, item 7: the cap on each connection's kernel send buffer was only in the docs
 * (700 stalled streams held 1.37 GB of kernel memory). It ships as a sysctl.d file that the
 * unit's install steps name; applied here in a network namespace of the test's own (the
 * TCP settings are per namespace), so the machine's own stay as they are.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const FILE = 'deploy/90-macrobell-relay.conf';

describe(FILE, () => {
  it('caps the send buffer at 256 KiB a connection when sysctl applies it', () => {
    const r = spawnSync(
      'unshare',
      ['-n', 'sh', '-c', `sysctl -q -p ${FILE} && cat /proc/sys/net/ipv4/tcp_wmem`],
      { encoding: 'utf8' },
    );
    if (r.error || r.status !== 0)
      throw new Error(
        `unshare -n (util-linux) and sysctl (procps) as root are needed: ${r.stderr || r.error?.message}`,
      );
    expect(r.stdout.trim().split(/\s+/).map(Number)).toEqual([4096, 16384, 262144]);
  });

  it("is installed by the unit's and the deploy guide's steps", () => {
    const step = 'sudo cp deploy/90-macrobell-relay.conf /etc/sysctl.d/ && sudo sysctl --system';
    expect(readFileSync('deploy/macrobell-relay.service', 'utf8')).toContain(step);
    expect(readFileSync('docs/relay.md', 'utf8').replace(/\n\s+/g, ' ')).toContain(step);
  });
});
