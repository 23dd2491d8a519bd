/**
 * What the kernel still queues on a server port's connections, from /proc/net/tcp and
 * tcp6 (Linux): bytes written by the server and not yet taken by the peer. A process's RSS
 * does not show them; 700 streams that never read can hold gigabytes there.
 */
import { readFileSync } from 'node:fs';

export interface KernelQueues {
  /** Connections whose local port is the server's (the listening socket excluded). */
  sockets: number;
  /** Their send queues, in bytes. */
  sendBytes: number;
}

export function kernelQueues(port: number): KernelQueues {
  let sockets = 0;
  let sendBytes = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      throw new Error(`${table} is not readable: these figures need Linux's /proc`);
    }
    for (const line of text.split('\n').slice(1)) {
      const [, local, , state, queues] = line.trim().split(/\s+/);
      if (!local || !queues || state === '0A') continue; // 0A: LISTEN
      if (parseInt(local.split(':').at(-1) ?? '', 16) !== port) continue;
      sockets++;
      sendBytes += parseInt(queues.split(':')[0] ?? '0', 16);
    }
  }
  return { sockets, sendBytes };
}
