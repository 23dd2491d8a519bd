// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
/**
 * The remote-content bypass corpus in Chromium: tracking pixels hidden in attributes and
 * media elements must load nothing remote while "load remote images" is off, and only
 * plain https <img> when it is on. Requests are caught at the network layer (after CSP),
 * so a hit means the page really asked for the URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sim, startE2E, type E2E } from './harness.js';

const T = 'https://tracker.invalid';
const CORPUS = [
  '<p>Corpus marker paragraph.</p>',
  `<table background="${T}/table.png"><tr><td background="${T}/td.png">cell</td></tr></table>`,
  `<video poster="${T}/poster.png" src="${T}/video.mp4"></video>`,
  `<video><source src="${T}/source.mp4"><track src="${T}/track.vtt"></video>`,
  `<audio src="${T}/audio.mp3" autoplay></audio>`,
  `<picture><source srcset="${T}/picture.png"><img alt="p"></picture>`,
  `<img srcset="${T}/srcset.png 1x" alt="s">`,
  `<img src="${T}/img.png" alt="i">`,
  `<div style="background-image:url(${T}/style.png)">styled</div>`,
  `<link rel="stylesheet" href="${T}/link.css">`,
  `<a href="https://fxstreet.com" ping="${T}/ping">pinged link</a>`,
  `<map name="m"><area shape="rect" coords="0,0,10,10" href="javascript:alert(1)"></map>`,
  `<img id="getElementById" name="cookie" alt="clobber">`,
  `<object data="${T}/object.swf"></object><embed src="${T}/embed.swf">`,
  `<svg><image href="${T}/svg.png"></image></svg>`,
].join('\n');

let e: E2E;
const hits: string[] = [];
beforeAll(async () => {
  e = await startE2E();
  await e.page.context().route(`${T}/**`, (route) => {
    hits.push(route.request().url());
    return route.fulfill({ status: 204 });
  });
  await sim(e, 'POST', '/_sim/posts', {
    culture: 'en-US',
    title: 'Tracking pixel corpus',
    content: CORPUS,
  });
});
afterAll(() => e?.close());

async function openCorpus(): Promise<void> {
  await e.page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: /^News/ })
    .click();
  await e.page.getByLabel('Search news').fill('Tracking pixel corpus');
  await e.page.getByTestId('post-item').first().click();
  await e.page.getByText('Corpus marker paragraph.').waitFor();
}

describe('post sanitiser in Chromium', () => {
  it('loads nothing remote from the bypass corpus while remote images are off', async () => {
    await openCorpus();
    // Settle: the reader has rendered; anything it would fetch has been asked for by now.
    await e.page.waitForLoadState('networkidle');
    expect(hits).toEqual([]);
    const reader = e.page.getByTestId('post-reader');
    const dom = await reader.evaluate((el) => ({
      clobber: ['id', 'name'].filter((a) => el.querySelector('img[alt=clobber]')?.hasAttribute(a)),
      names: el.querySelectorAll('[name]').length,
      media: el.querySelectorAll('video, audio, source, track, picture').length,
      areaHref: [...el.querySelectorAll('area')].map((a) => a.getAttribute('href')),
      areaTarget: [...el.querySelectorAll('area')].map((a) => a.getAttribute('target')),
    }));
    expect(dom).toMatchObject({
      clobber: [],
      names: 0,
      media: 0,
      areaHref: [null],
      areaTarget: ['_blank'],
    });
  });

  it('with remote images on, loads only the plain https <img>', async () => {
    hits.length = 0;
    await e.page.evaluate(() =>
      fetch('/api/updateSettings', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          // The page's session key, as the app's bridge sends it (the cookie alone is refused).
          'x-macrobell-key': localStorage.getItem('macrobell.pageKey') ?? '',
        },
        body: JSON.stringify({ allowRemoteImages: true }),
      }),
    );
    await e.page.reload();
    await openCorpus();
    await e.page.waitForLoadState('networkidle');
    // Which URLs load (the open page follows the setting at once, so it may load twice).
    await expect.poll(() => [...new Set(hits)]).toEqual([`${T}/img.png`]);
  });
});
