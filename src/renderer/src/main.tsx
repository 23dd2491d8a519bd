// React Refresh's preamble as a module, before any component: the inline <script> the React
// plugin adds to index.html in development is refused by the page's CSP (script-src 'self'),
// and that policy stays as strict in development as in the built app. Empty in a build.
import '@vitejs/plugin-react/preamble';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { detectBridge } from './bridge/index.js';
import { App } from './components/App.js';
import { createStores, StoresContext } from './state/index.js';
import './styles.css';

const stores = createStores(detectBridge());
createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <StoresContext.Provider value={stores}>
      <App />
    </StoresContext.Provider>
  </StrictMode>,
);
