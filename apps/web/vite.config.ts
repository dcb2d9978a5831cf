import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const target = process.env.ONE_HUB_SERVER ?? 'http://localhost:3000';
const proxy = Object.fromEntries(['/api', '/v1', '/claude', '/gemini'].map((p) => [p, { target, changeOrigin: true }]));

export default defineConfig({
  plugins: [react()],
  server: { proxy },
  build: { outDir: 'dist', chunkSizeWarningLimit: 1500 },
});
