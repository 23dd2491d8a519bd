/** A loopback desk-chat receiver (Slack-compatible `{text}` posts), for desk-alert tests. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatReceiver {
  url: string;
  /** Every post's text, in order. */
  texts: string[];
  close(): Promise<void>;
}

export async function startChatReceiver(): Promise<ChatReceiver> {
  const texts: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      texts.push((JSON.parse(body) as { text: string }).text);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    texts,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
