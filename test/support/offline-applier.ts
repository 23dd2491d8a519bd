/**
 * The real ChangeApplier on a real store, with a service that never answers: for tests of
 * what the apply path and its subscribers do with notifications alone (a fetch fails).
 */
import { ChangeApplier, type ApplierDeps } from '../../src/main/sync/applier.js';
import { silentLogger } from '../../src/node/log/logger.js';

export function offlineApplier(deps: Pick<ApplierDeps, 'store' | 'alerts'>): ChangeApplier {
  const offline = async () => {
    throw new Error('offline');
  };
  return new ChangeApplier({
    ...deps,
    calendar: { eventDates: offline, eventDate: offline, event: offline, categories: offline },
    news: { post: offline, feed: offline },
    logger: silentLogger(),
    cultures: () => ['en-US'],
  });
}
