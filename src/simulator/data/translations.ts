/** Event names per calendar language (the real API translates them); English is the fallback. */
const NAMES: Record<string, Record<string, string>> = {
  es: {
    'Nonfarm Payrolls': 'Nóminas no agrícolas',
    'Unemployment Rate': 'Tasa de desempleo',
    'Consumer Price Index (MoM)': 'Índice de Precios al Consumo (mensual)',
    'Consumer Price Index (YoY)': 'Índice de Precios al Consumo (interanual)',
    'Retail Sales (MoM)': 'Ventas minoristas (mensual)',
    'Initial Jobless Claims': 'Solicitudes iniciales de subsidio por desempleo',
    'Gross Domestic Product Annualized': 'Producto Interior Bruto anualizado',
    'Trade Balance': 'Balanza comercial',
    'ISM Manufacturing PMI': 'PMI manufacturero del ISM',
  },
  de: {
    'Nonfarm Payrolls': 'Beschäftigung außerhalb der Landwirtschaft',
    'Unemployment Rate': 'Arbeitslosenquote',
    'Consumer Price Index (MoM)': 'Verbraucherpreisindex (Monat)',
    'Consumer Price Index (YoY)': 'Verbraucherpreisindex (Jahr)',
    'Retail Sales (MoM)': 'Einzelhandelsumsätze (Monat)',
    'Initial Jobless Claims': 'Erstanträge auf Arbeitslosenhilfe',
    'Gross Domestic Product Annualized': 'Bruttoinlandsprodukt annualisiert',
    'Trade Balance': 'Handelsbilanz',
    'ISM Manufacturing PMI': 'ISM-Einkaufsmanagerindex Industrie',
  },
};

/** A copy of `record` with its `name` in `lang`, when a translation is known. */
export function translated<T extends { name: string }>(record: T, lang: string): T {
  const name = NAMES[lang]?.[record.name];
  return name ? { ...record, name } : record;
}
