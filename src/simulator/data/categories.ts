/** The calendar's real category ids (service-api.md). */
export const CATEGORIES = {
  bondAuctions: { id: '8896AA26-A50C-4F8B-AA11-8B3FCCDA1DFD', name: 'Bond Auctions' },
  capitalFlows: { id: 'FA6570F6-E494-4563-A363-00D0F2ABEC37', name: 'Capital Flows' },
  centralBanks: { id: 'C94405B5-5F85-4397-AB11-002A481C4B92', name: 'Central Banks' },
  consumption: { id: 'E229C890-80FC-40F3-B6F4-B658F3A02635', name: 'Consumption' },
  economicActivity: { id: '24127F3B-EDCE-4DC4-AFDF-0B3BD8A964BE', name: 'Economic Activity' },
  energy: { id: 'DD332FD3-6996-41BE-8C41-33F277074FA7', name: 'Energy' },
  holidays: { id: '7DFAEF86-C3FE-4E76-9421-8958CC2F9A0D', name: 'Holidays' },
  housing: { id: '1E06A304-FAC6-440C-9CED-9225A6277A55', name: 'Housing Market' },
  inflation: { id: '33303F5E-1E3C-4016-AB2D-AC87E98F57CA', name: 'Inflation' },
  interestRates: { id: '9C4A731A-D993-4D55-89F3-DC707CC1D596', name: 'Interest Rates' },
  labor: { id: '91DA97BD-D94A-4CE8-A02B-B96EE2944E4C', name: 'Labor Market' },
  politics: { id: 'E9E957EC-2927-4A77-AE0C-F5E4B5807C16', name: 'Politics' },
} as const;

export type CategoryKey = keyof typeof CATEGORIES;

export const CATEGORY_LIST = Object.values(CATEGORIES).map((c) => ({ id: c.id, name: c.name }));

export const ASSETS = [
  { code: 'fxs-3212164', name: 'EUR/USD', type: 'Currency' },
  { code: 'fxs-3212165', name: 'GBP/USD', type: 'Currency' },
  { code: 'fxs-3212166', name: 'USD/JPY', type: 'Currency' },
  { code: 'fxs-3212167', name: 'AUD/USD', type: 'Currency' },
  { code: 'fxs-3212168', name: 'USD/CAD', type: 'Currency' },
  { code: 'fxs-3212169', name: 'USD/CHF', type: 'Currency' },
  { code: 'fxs-3212170', name: 'NZD/USD', type: 'Currency' },
  { code: 'fxs-3212171', name: 'USD/CNH', type: 'Currency' },
  { code: 'fxs-3212200', name: 'Gold', type: 'Commodity' },
  { code: 'fxs-3212201', name: 'WTI Oil', type: 'Commodity' },
  { code: 'fxs-3212300', name: 'S&P 500', type: 'Index' },
  { code: 'fxs-3212301', name: 'DAX', type: 'Index' },
];
