import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The footer's version: the release (env, else the package version, as the server reports it) and the git commit. */
const pkgVersion = `v${(JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }).version}`;
function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return process.env.GIT_COMMIT ?? '';
  }
}

/** `npm run dev` proxies every server face to the running server (ONE_HUB_SERVER, default :3000). */
const target = process.env.ONE_HUB_SERVER ?? 'http://localhost:3000';
const SERVER_PATHS = ['/api', '/v1', '/claude', '/gemini', '/mj', '/suno', '/kling', '/recraftAI'];
const proxy = Object.fromEntries(SERVER_PATHS.map((p) => [p, { target, changeOrigin: true }]));

export default defineConfig({
  plugins: [react()],
  define: {
    __APP_VERSION__: JSON.stringify(process.env.VITE_APP_VERSION ?? process.env.ONE_HUB_VERSION ?? pkgVersion),
    __APP_COMMIT__: JSON.stringify(gitCommit()),
  },
  server: { proxy },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 1200,
    rollupOptions: {
      output: {
        manualChunks(id: string) {
          if (id.includes('node_modules/@mui') || id.includes('node_modules/@emotion')) return 'mui';
          if (/node_modules\/(react|react-dom|react-router|react-router-dom|scheduler)\//.test(id)) return 'react';
          return undefined;
        },
      },
    },
  },
});
