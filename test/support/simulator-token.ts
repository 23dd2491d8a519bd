/** A service token from a simulator's token endpoint (client credentials), for raw API calls. */
import type { RunningSimulator } from '../../src/simulator/index.js';

export async function simulatorToken(
  sim: RunningSimulator,
  scope: 'calendar' | 'news',
): Promise<string> {
  const res = await fetch(`${sim.authUrl}/v2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: sim.clientId,
      client_secret: sim.clientSecret,
      scope,
    }).toString(),
  });
  if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}
