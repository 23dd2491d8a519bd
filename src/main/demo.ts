/**
 * Demo mode's market: the simulator of the service, loaded lazily so the production core
 * never imports it (lint allows this one module to). A user with no keys gets demo data
 * from it; tests drive its control API at `url`.
 */
export interface DemoMarket {
  url: string;
  authUrl: string;
  calendarUrl: string;
  newsUrl: string;
  clientId: string;
  clientSecret: string;
  /** The calendar window as the service's API would answer it (JSON), without a request. */
  eventDatesJson(from: number, to: number, lang: string): unknown[];
  close(): Promise<void>;
}

export async function startDemoMarket(opts: {
  seed: number;
  speed: number;
  autoplay: boolean;
}): Promise<DemoMarket> {
  const { startSimulator } = await import('../simulator/index.js');
  return startSimulator({ port: 0, ...opts });
}
