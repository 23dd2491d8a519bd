/** Store failures a user can act on: each names the database file. */
export class StoreError extends Error {
  override name = 'StoreError';
  constructor(
    message: string,
    readonly code: 'damaged' | 'newer_version' | 'cannot_open',
    readonly path: string,
  ) {
    super(message);
  }
}
