import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { cairnProxy } from './cairn-proxy.ts';

// `vite` (dev) and `vite preview` (the built app) both forward `/v1` to cairn-server.
const proxy = cairnProxy(process.env);

export default defineConfig({
  plugins: [react()],
  server: { proxy },
  preview: { proxy },
  // React, react-dom and the AI SDK make one ~400 kB script: fine for an example, no need to split.
  build: { chunkSizeWarningLimit: 1000 },
});
