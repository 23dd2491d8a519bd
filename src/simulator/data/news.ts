/** Generates a stream of news posts (v4, PascalCase) per culture, from a seed. */
import { createRng, pick, uuid, type Rng } from '../rng.js';
import type { SimEventDate } from './calendar.js';
import { PAIRS, releaseStories } from './release-news.js';

export const CULTURES = ['en-US', 'es-ES', 'de-DE'] as const;

export interface SimPost {
  Id: string;
  Title: string;
  Summary: string;
  Content: string;
  Culture: string;
  PublicationDate: string;
  UpdateDate: string | null;
  Url: string | null;
  ImageUrl: string | null;
  Author: { Id: string; Name: string; Url: string | null; ImageUrl: string | null };
  Company: { Id: string; Name: string };
  Categories: { Id: string; Name: string }[];
  Tags: { Id: string; Name: string }[];
}

/**
 * Invented bylines: the demo's stories are invented, and a real analyst's name under them
 * would put words in a real person's mouth.
 */
const AUTHORS = [
  'Mara Lindqvist',
  'Tomás Ferreira',
  'Priya Raman',
  'Jonas Weidlich',
  'Elena Kovačić',
  'Daniel Okonkwo',
  'Sophie Marchetti',
  'Kenji Arakawa',
];
/** The demo's own newsroom: no real publisher's name, and no link to a real site. */
const NEWSROOM = { Id: 'macrobell-demo', Name: 'Macrobell demo newsroom' };
const NEWS_CATEGORIES = [
  { Id: 'c-fx', Name: 'Forex' },
  { Id: 'c-macro', Name: 'Macroeconomics' },
  { Id: 'c-cb', Name: 'Central Banks' },
  { Id: 'c-cmd', Name: 'Commodities' },
];

interface Story {
  tag: string;
  /** The news category the story is filed under (never drawn at random). */
  category?: { Id: string; Name: string };
  title: Record<string, string>;
  body: Record<string, string>;
  /**
   * A story about a print: published shortly after that print, and only when the demo's
   * print says what the story says (an "undershoot" after a miss, never after an in-line).
   */
  after?: { country: string; name: string; when: (ed: SimEventDate) => boolean };
}

const below = (ed: SimEventDate) =>
  ed.actual !== null && ed.consensus !== null && ed.actual < ed.consensus;

const STORIES: Story[] = [
  {
    tag: 'EUR/USD',
    category: NEWS_CATEGORIES[0],
    title: {
      'en-US': 'EUR/USD Forecast: Euro holds gains ahead of US inflation data',
      'es-ES':
        'Pronóstico del EUR/USD: el euro mantiene las ganancias antes de la inflación de EE.UU.',
      'de-DE': 'EUR/USD Prognose: Euro hält Gewinne vor US-Inflationsdaten',
    },
    body: {
      'en-US':
        'EUR/USD trades in a tight range as markets await the Consumer Price Index. A hotter print would revive bets on a hawkish Federal Reserve.',
      'es-ES':
        'El EUR/USD cotiza en un rango estrecho mientras los mercados esperan el Índice de Precios al Consumo.',
      'de-DE':
        'EUR/USD handelt in einer engen Spanne, während die Märkte auf den Verbraucherpreisindex warten.',
    },
  },
  {
    tag: 'USD',
    category: NEWS_CATEGORIES[1],
    title: {
      'en-US': 'Nonfarm Payrolls preview: Labor market expected to cool further',
      'es-ES': 'Previa de las nóminas no agrícolas: se espera que el mercado laboral se enfríe',
      'de-DE': 'Vorschau auf die Non-Farm Payrolls: Arbeitsmarkt dürfte weiter abkühlen',
    },
    body: {
      'en-US':
        'Economists expect Nonfarm Payrolls to rise by around 180K, with the Unemployment Rate steady. Wage growth remains the key for the Fed.',
      'es-ES': 'Los economistas esperan un aumento de unas 180 mil nóminas no agrícolas.',
      'de-DE':
        'Ökonomen erwarten einen Anstieg der Beschäftigung außerhalb der Landwirtschaft um rund 180.000.',
    },
  },
  {
    tag: 'GBP/USD',
    category: NEWS_CATEGORIES[0],
    after: { country: 'UK', name: 'Consumer Price Index (YoY)', when: below },
    title: {
      'en-US': 'Pound Sterling slides as UK inflation undershoots',
      'es-ES': 'La libra esterlina cae tras una inflación británica menor de lo esperado',
      'de-DE': 'Pfund Sterling fällt nach schwächerer britischer Inflation',
    },
    body: {
      'en-US':
        'GBP/USD dropped after the UK Consumer Price Index came in below consensus, raising odds of a Bank of England rate cut.',
      'es-ES': 'El GBP/USD cayó después de que el IPC británico quedara por debajo del consenso.',
      'de-DE': 'GBP/USD fiel, nachdem der britische Verbraucherpreisindex unter dem Konsens lag.',
    },
  },
  {
    tag: 'USD/JPY',
    category: NEWS_CATEGORIES[2],
    title: {
      'en-US': 'USD/JPY: Yen firms as BoJ signals patience on policy normalisation',
      'es-ES': 'USD/JPY: el yen se fortalece mientras el BoJ pide paciencia',
      'de-DE': 'USD/JPY: Yen fester, BoJ signalisiert Geduld',
    },
    body: {
      'en-US':
        'The Bank of Japan kept its policy rate unchanged and signalled it will wait for more wage data before tightening.',
      'es-ES': 'El Banco de Japón mantuvo su tasa sin cambios.',
      'de-DE': 'Die Bank of Japan ließ den Leitzins unverändert.',
    },
  },
  {
    tag: 'Gold',
    category: NEWS_CATEGORIES[3],
    title: {
      'en-US': 'Gold Price Forecast: XAU/USD eyes record as yields retreat',
      'es-ES': 'Pronóstico del oro: el XAU/USD apunta a máximos con la caída de los rendimientos',
      'de-DE': 'Goldpreis-Prognose: XAU/USD nimmt Rekord ins Visier',
    },
    body: {
      'en-US':
        'Gold extends its rally as Treasury yields fall and the US Dollar softens ahead of the FOMC decision.',
      'es-ES': 'El oro amplía su rally mientras caen los rendimientos del Tesoro.',
      'de-DE': 'Gold setzt seine Rally fort, da die Renditen fallen.',
    },
  },
  {
    tag: 'ECB',
    category: NEWS_CATEGORIES[2],
    after: {
      country: 'EMU',
      name: 'ECB Main Refinancing Operations Rate',
      when: (ed) => ed.actual !== null && ed.actual === ed.previous,
    },
    title: {
      'en-US': 'ECB holds rates, Lagarde says the disinflation process is on track',
      'es-ES': 'El BCE mantiene los tipos; Lagarde dice que la desinflación sigue su curso',
      'de-DE': 'EZB belässt Zinsen, Lagarde sieht Disinflation auf Kurs',
    },
    body: {
      'en-US':
        'The European Central Bank left its Main Refinancing Operations Rate unchanged. President Lagarde stressed data dependence.',
      'es-ES': 'El Banco Central Europeo dejó sin cambios su tasa de refinanciación.',
      'de-DE': 'Die Europäische Zentralbank ließ den Hauptrefinanzierungssatz unverändert.',
    },
  },
  {
    tag: 'WTI',
    category: NEWS_CATEGORIES[3],
    after: {
      country: 'US',
      name: 'EIA Crude Oil Stocks Change',
      when: (ed) => ed.actual !== null && ed.actual > 0 && ed.actual > (ed.consensus ?? 0),
    },
    title: {
      'en-US': 'WTI Oil slips after surprise build in EIA crude stocks',
      'es-ES': 'El petróleo WTI cae tras un aumento inesperado de inventarios',
      'de-DE': 'WTI-Öl rutscht nach überraschendem Lageraufbau ab',
    },
    body: {
      'en-US':
        'Crude prices fell after the EIA reported an unexpected rise in US commercial inventories.',
      'es-ES': 'Los precios del crudo cayeron tras el informe de la EIA.',
      'de-DE': 'Die Rohölpreise fielen nach dem EIA-Bericht.',
    },
  },
  {
    tag: 'AUD/USD',
    category: NEWS_CATEGORIES[0],
    after: {
      country: 'AU',
      name: 'Employment Change s.a.',
      when: (ed) => ed.isBetterThanExpected === true,
    },
    title: {
      'en-US': 'AUD/USD rallies as Australian employment beats forecasts',
      'es-ES': 'El AUD/USD sube tras un empleo australiano mejor de lo previsto',
      'de-DE': 'AUD/USD steigt nach starken australischen Arbeitsmarktdaten',
    },
    body: {
      'en-US':
        'The Aussie jumped after Employment Change came in well above consensus, trimming RBA cut bets.',
      'es-ES': 'El australiano saltó tras un cambio en el empleo por encima del consenso.',
      'de-DE': 'Der Aussie sprang nach einer deutlich besseren Beschäftigungsänderung.',
    },
  },
  {
    tag: 'USD/CAD',
    category: NEWS_CATEGORIES[2],
    title: {
      'en-US': 'USD/CAD: Loonie steady ahead of BoC decision',
      'es-ES': 'USD/CAD: el loonie estable antes de la decisión del BoC',
      'de-DE': 'USD/CAD: Loonie stabil vor BoC-Entscheid',
    },
    body: {
      'en-US':
        'Markets fully price a hold from the Bank of Canada; guidance on the path of rates will drive the Loonie.',
      'es-ES': 'Los mercados descuentan una pausa del Banco de Canadá.',
      'de-DE': 'Die Märkte preisen eine Zinspause der Bank of Canada ein.',
    },
  },
  {
    tag: 'China',
    category: NEWS_CATEGORIES[1],
    after: {
      country: 'CN',
      name: 'NBS Manufacturing PMI',
      when: (ed) => ed.actual !== null && ed.actual < 50,
    },
    title: {
      'en-US': 'China PMI back below 50 as export orders weaken',
      'es-ES': 'El PMI de China vuelve por debajo de 50',
      'de-DE': 'China-PMI fällt wieder unter 50',
    },
    body: {
      'en-US':
        'The NBS Manufacturing PMI slipped into contraction, weighing on commodity currencies.',
      'es-ES': 'El PMI manufacturero cayó en contracción.',
      'de-DE': 'Der NBS-Einkaufsmanagerindex rutschte in die Kontraktion.',
    },
  },
];

/**
 * The draws of one post, from its culture and title: a restarted demo publishes the same
 * story under the same id (the app updates it rather than showing it twice), and a print
 * story autoplay writes has the id the start-up news would give it.
 */
export const postRng = (seed: number | string, culture: string, title: string): Rng =>
  createRng(`${seed}:post:${culture}:${title}`);

/** The market story written about this print, if one is (the UK CPI undershoot…). */
export function tiedStoryFor(ed: SimEventDate) {
  const story = STORIES.find(
    (s) => s.after && s.after.country === ed.countryCode && s.after.name === ed.name,
  );
  return story?.after?.when(ed)
    ? { title: story.title, body: story.body, tag: story.tag, category: story.category }
    : null;
}

/** What moves on a story of this tag: a pair is itself; "ECB" is no market to react in. */
const MARKET_OF: Record<string, string> = {
  ECB: 'EUR/USD',
  China: 'AUD/USD',
  USD: 'the US Dollar Index',
  Gold: 'gold',
  WTI: 'oil prices',
};
const reactionMarket = (tag: string) => MARKET_OF[tag] ?? tag;

function html(rng: Rng, lead: string, tag: string): string {
  const para2 = pick(rng, [
    'Technical picture: the pair holds above its 20-day moving average, with resistance at the recent high.',
    'Positioning data show speculators had trimmed their longs going into the week.',
    'Analysts at several banks see risks skewed to the upside in the near term.',
  ]);
  return [
    `<p>${lead}</p>`,
    `<h2>What to watch</h2>`,
    `<ul><li>Consensus and the previous print</li><li>Revisions to earlier data</li><li>Reaction in ${reactionMarket(tag)}</li></ul>`,
    // invented text links nowhere: no "Read more" on a real site
    `<p>${para2}</p>`,
  ].join('\n');
}

export function makePost(rng: Rng, culture: string, publishedMs: number, story?: Story): SimPost {
  const s = story ?? pick(rng, STORIES);
  const id = uuid(rng);
  const author = pick(rng, AUTHORS);
  const lead = s.body[culture] ?? s.body['en-US'] ?? '';
  const title = s.title[culture] ?? s.title['en-US'] ?? '';
  return {
    Id: id,
    Title: title,
    Summary: lead.split('. ')[0]?.replace(/\.?$/, '.') ?? lead,
    Content: html(rng, lead, s.tag),
    Culture: culture,
    PublicationDate: new Date(publishedMs).toISOString(),
    UpdateDate: null,
    Url: null,
    ImageUrl: null,
    Author: { Id: `a-${author.length}`, Name: author, Url: null, ImageUrl: null },
    Company: NEWSROOM,
    Categories: [s.category ?? pick(rng, NEWS_CATEGORIES)],
    Tags: [{ Id: `t-${s.tag}`, Name: s.tag }],
  };
}

const tagList = (names: string[]) =>
  [...new Set(names.filter(Boolean))].map((t) => ({ Id: `t-${t}`, Name: t }));

/**
 * The last five days of news per culture, newest first: a story after each notable print of
 * the demo calendar and a preview before each high-impact one, plus each market story once.
 */
export function generatePosts(
  seed: number | string,
  now: number,
  eventDates: readonly SimEventDate[] = [],
): SimPost[] {
  const rng = createRng(`${seed}:news`);
  const draw = (id: string) => createRng(`${seed}:story:${id}`)();
  // one story per print: a market story tied to a print stands in for the generic one
  const tied = STORIES.map((s) => ({
    story: s,
    at: s.after ? tiedPrint(s.after, eventDates, now, draw) : null,
  }));
  const covered = new Set(tied.map((t) => t.at?.ed.id));
  const stories = releaseStories(eventDates, now, draw).filter((r) => !covered.has(r.about));
  // a post's id, author and text follow from its culture and title (see `postRng`)
  const own = (culture: string, title: Record<string, string>) =>
    postRng(seed, culture, title[culture] ?? title['en-US'] ?? '');
  const general = STORIES.filter((s) => !s.after);
  const posts: SimPost[] = [];
  for (const culture of CULTURES) {
    for (const r of stories) {
      const post = makePost(own(culture, r.title), culture, r.publishedMs, {
        tag: r.tags[1] ?? r.tags[0] ?? '',
        category: r.category,
        title: r.title,
        body: r.body,
      });
      post.Tags = tagList(r.tags);
      posts.push(post);
    }
    // each market story once: one about a print right after it (or not at all when the
    // week had no such print, and then tagged with the print's currency and pair), the
    // others spread over the last five weekdays
    for (const { story, at } of tied) {
      if (story.after && !at) continue;
      const t =
        at?.ms ??
        weekday(
          now -
            10 * 60_000 -
            Math.floor(((general.indexOf(story) + rng()) * 5 * 86_400_000) / general.length),
        );
      const post = makePost(own(culture, story.title), culture, t, story);
      if (at) post.Tags = tagList([at.ed.currencyCode, PAIRS[at.ed.currencyCode] ?? '', story.tag]);
      posts.push(post);
    }
  }
  return posts.sort((a, b) => b.PublicationDate.localeCompare(a.PublicationDate));
}

/** The week's last print the story is about, and 25–55 minutes after it; null when none. */
function tiedPrint(
  after: NonNullable<Story['after']>,
  eventDates: readonly SimEventDate[],
  now: number,
  draw: (eventDateId: string) => number,
): { ed: SimEventDate; ms: number } | null {
  const prints = eventDates
    .filter(
      (ed) =>
        ed.countryCode === after.country &&
        ed.name === after.name &&
        ed.actual !== null &&
        Date.parse(ed.dateUtc) < now &&
        Date.parse(ed.dateUtc) > now - 7 * 86_400_000,
    )
    .sort((a, b) => b.dateUtc.localeCompare(a.dateUtc));
  const last = prints[0];
  if (!last || !after.when(last)) return null;
  const t = Date.parse(last.dateUtc) + (25 + Math.floor(draw(last.id) * 30)) * 60_000;
  return t < now ? { ed: last, ms: t } : null;
}

/** Markets are shut at the weekend: a Saturday or Sunday time moves back to the Friday. */
function weekday(t: number): number {
  const day = new Date(t).getUTCDay();
  return day === 6 ? t - 86_400_000 : day === 0 ? t - 2 * 86_400_000 : t;
}
