// postinstall: builds the dashboard into dashboard/dist (Vite). The build tools are dev dependencies, so an install
// without them (`npm ci --omit=dev`, the k8s image, which builds the dashboard in a stage of its own) skips the build
// and says so; with them, a failed build fails the install.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
try {
  require.resolve('vite/package.json');
} catch {
  console.log('dashboard: build skipped (vite is a dev dependency and is not installed)');
  process.exit(0);
}
const { build } = await import('vite');
await build({ configFile: new URL('./vite.config.ts', import.meta.url).pathname, logLevel: 'warn' });
console.log('dashboard: built into dashboard/dist');
