// React Refresh's preamble as a module, before any component: the inline <script> the React
// plugin adds to index.html in development is refused by the page's CSP (script-src 'self'),
// and that policy stays as strict in development as in the built app. Empty in a build.
import '@vitejs/plugin-react/preamble';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { detectBridge } from './bridge/index.js';
import { Root } from './components/Root.js';
import { startPageFallback } from './fallback/page-alert.js';
import { startErrorReports } from './lib/error-reports.js';
import { startBoot } from './state/boot.js';
import { createStores, StoresContext } from './state/index.js';
import './styles.css';

const bridge = detectBridge();
// Before React: a failure anywhere in it is reported, and an alert it misses still shows.
startErrorReports(bridge);
startPageFallback(bridge, () => stores.app.getState().settings);
const stores = createStores(bridge);
// the first screen's requests leave now, not after React's first render
startBoot(stores);
createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <StoresContext.Provider value={stores}>
      <Root />
    </StoresContext.Provider>
  </StrictMode>,
);
