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
