/** Events (what is released: "US Nonfarm Payrolls") and their categories. */
import { z } from 'zod';
import type { CalendarEvent, Category } from '../../shared/domain.js';
import { parseCheckedJson } from '../../node/json/checked-json.js';
import type { CategoriesTable, EventsTable } from './schema.js';
import type { Statements } from './statements.js';

/**
 * The record as stored in `events.raw`: the API's JSON with the mapped fields over it (older
 * rows may lack some of them: they read as their defaults below).
 */
const storedEvent = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullish(),
  countryCode: z.string().nullish(),
  currencyCode: z.string().nullish(),
  categoryId: z.string().nullish(),
  periodType: z.string().nullish(),
  unit: z.string().nullish(),
  potency: z.string().nullish(),
  volatility: z.string().nullish(),
  isSpeech: z.unknown(),
  isReport: z.unknown(),
});

function eventFromRaw(raw: EventsTable['raw']): CalendarEvent {
  const r = parseCheckedJson('a cached event (events.raw)', storedEvent, raw);
  return {
    id: r.id,
    name: r.name,
    description: r.description ?? null,
    countryCode: r.countryCode ?? '',
    currencyCode: r.currencyCode ?? '',
    categoryId: r.categoryId ?? null,
    periodType: r.periodType ?? null,
    unit: r.unit ?? null,
    potency: r.potency ?? null,
    volatility: r.volatility ?? 'NONE',
    isSpeech: Boolean(r.isSpeech),
    isReport: Boolean(r.isReport),
  };
}

export class Events {
  constructor(private readonly q: Statements) {}

  upsert(e: CalendarEvent, raw: unknown): void {
    this.q
      .objects(
        `INSERT INTO events (id, name, country_code, currency_code, category_id, volatility, raw)
         VALUES (@id, @name, @country, @currency, @category, @volatility, @raw)
         ON CONFLICT(id) DO UPDATE SET name=excluded.name, country_code=excluded.country_code,
           currency_code=excluded.currency_code, category_id=excluded.category_id,
           volatility=excluded.volatility, raw=excluded.raw`,
      )
      .run({
        id: e.id,
        name: e.name,
        country: e.countryCode,
        currency: e.currencyCode,
        category: e.categoryId,
        volatility: e.volatility,
        raw: JSON.stringify({ ...(raw as object), ...e }),
      });
  }

  get(id: string): CalendarEvent | null {
    const raw = this.q.values<EventsTable['raw']>('SELECT raw FROM events WHERE id = ?').get(id);
    return raw === undefined ? null : eventFromRaw(raw);
  }

  upsertCategories(list: Category[]): void {
    const s = this.q.objects(
      'INSERT INTO categories (id, name) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET name = excluded.name',
    );
    for (const c of list) s.run(c.id, c.name);
  }

  listCategories(): Category[] {
    return this.q
      .objects<CategoriesTable>('SELECT id, name FROM categories ORDER BY name')
      .all()
      .map((r) => ({ id: r.id, name: r.name }));
  }
}
