import { createContext } from 'react';

/** Lets a stand-in screen ask the remote route around it to load the remote again. */
export const RemoteRetryContext = createContext<(() => void) | null>(null);
