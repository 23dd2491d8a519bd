/**
 * A registered webhook URL as it may be shown: user info, query values and every path
 * segment that could be a secret (the one after `/hooks/`, anything long and random-looking,
 * and the known secrets wherever they appear) become `<secret>`.
 */
const RANDOM_LOOKING = /^[A-Za-z0-9_~.-]{16,}$/;

export function maskUrl(raw: string, known: string[] = []): string {
  let text = raw;
  for (const s of known) if (s) text = text.split(s).join('<secret>');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return '<unparseable URL>';
  }
  const segments = url.pathname.split('/');
  const masked = segments.map((seg, i) => {
    if (seg === '' || seg === '<secret>' || seg === '%3Csecret%3E') return seg;
    const afterHooks = i > 0 && segments[i - 1] === 'hooks';
    const randomLooking = RANDOM_LOOKING.test(seg) && /\d/.test(seg) && /[A-Za-z]/.test(seg);
    return afterHooks || randomLooking ? '<secret>' : seg;
  });
  const query = [...url.searchParams.keys()].map((k) => `${k}=<secret>`).join('&');
  const auth = url.username || url.password ? '<secret>@' : '';
  return `${url.protocol}//${auth}${url.host}${masked.join('/').replace(/%3Csecret%3E/g, '<secret>')}${query ? `?${query}` : ''}`;
}
