/**
 * Component tests wait for what a user would see (`findBy…`, `waitFor`), not for a fixed
 * time. Testing Library's default of 1 s fails them on a loaded machine (CI, or parallel
 * runs); a user-visible wait of 10 s still fails a real hang.
 */
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 10_000 });
}
export {};
