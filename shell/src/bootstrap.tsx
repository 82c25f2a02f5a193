import { registerPlugins } from '@module-federation/enhanced/runtime';
import { modeAtom, shopStore } from '@shop/state';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { earlyRemoteEntryPlugin } from './federation/early-remote-entry.runtime-plugin';
import { prefetchedManifestPlugin } from './federation/prefetched-manifest.runtime-plugin';
import { remoteFallbackPlugin } from './federation/remote-fallback.runtime-plugin';
import { startRemotes } from './federation/remote-registry';
import './styles/global.css';

registerPlugins([prefetchedManifestPlugin(), earlyRemoteEntryPlugin(), remoteFallbackPlugin()]);
void startRemotes();

// Set before the first paint so a dark-mode visitor never sees a light flash.
document.body.dataset['theme'] = shopStore.get(modeAtom);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
