// ESLint (flat config): STYLE.md's errors, plus the actor boundary rule of ARCHITECTURE.md.
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

/** Folders under `dir` (sorted), each an actor or an adapter actor. */
const folders = (dir) =>
  fs
    .readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();

/**
 * An actor's modules are its own: a file under `actors/<name>/` (or `actors/adapters/<name>/`) may import from `contracts/`,
 * `brokers/`, `workers/`, the adapter kit and its own folder, never from another actor's folder. The launcher
 * (`brokers/launcher/roles.ts`) is the composition root and the only importer of every actor.
 */
const actorZones = [
  ...folders('./actors/')
    .filter((name) => name !== 'adapters')
    .map((name) => ({ target: `./actors/${name}`, from: './actors', except: [`./${name}`, './adapters/kit'] })),
  ...folders('./actors/adapters/')
    .filter((name) => name !== 'kit')
    .map((name) => ({
      target: `./actors/adapters/${name}`,
      from: './actors',
      except: [`./adapters/${name}`, './adapters/kit'],
    })),
  { target: './actors/adapters/kit', from: './actors', except: ['./adapters/kit'] },
  { target: ['./contracts', './workers', './gateway'], from: './actors' },
  { target: './contracts', from: ['./brokers', './gateway', './workers'] },
  { target: './workers', from: ['./brokers', './gateway'] },
];

/** Strings and template parts that name a machine folder (the test's patterns, without its lookbehind). */
const MACHINE_PATH = String.raw`/(^|[^\w.~-])\/(work|root|Users|mnt)\/|(^|[^\w.~-])\/home\/\w|[A-Za-z]:\\Users|(^|[^\w.-])(\.\.\/)+shared\b/`;
const machinePathSelectors = [`Literal[value=${MACHINE_PATH}]`, `TemplateElement[value.raw=${MACHINE_PATH}]`];

export default tseslint.config(
  {
    ignores: ['node_modules/**', 'dashboard/dist/**', 'dashboard/vite.config.ts', '.data/**', 'dist/**', 'coverage/**'],
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js'] })],
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-floating-promises': 'error',
      // n/prefer-node-protocol: Node's own modules by their `node:` name.
      'no-restricted-imports': [
        'error',
        {
          paths: builtinModules
            .filter((m) => !m.startsWith('_'))
            .map((name) => ({ name, message: `import 'node:${name}'` })),
        },
      ],
      // Runtime circles. import-x skips type-only imports with no option to include them, so circles closed by
      // type imports are held by test/unit/no-import-cycles.test.ts (madge, type imports included; decision 0207).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: actorZones }],
      'no-console': 'error',
    },
  },
  // The dashboard (browser code, its own tsconfig): the wire shapes come from contracts/ as types only, so zod and the
  // server's code never reach the bundle; nothing from the server's folders at all.
  {
    files: ['dashboard/src/**/*.{ts,tsx}'],
    extends: [tseslint.configs.base],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/contracts/**'],
              allowTypeImports: true,
              message: 'the dashboard imports contracts as types only',
            },
            {
              group: ['**/brokers/**', '**/actors/**', '**/gateway/**', '**/workers/**', 'node:*'],
              message: 'browser code',
            },
          ],
        },
      ],
    },
  },
  // No machine paths in code (issue 37; test/unit/no-machine-paths.test.ts checks every tracked file, comments too): a
  // string naming a folder of one machine (the shared folder beside the checkout, a home folder, a mount) breaks every
  // other checkout. Paths come from configuration or are relative to the file (import.meta.dirname).
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...machinePathSelectors.map((selector) => ({
          selector,
          message: 'a machine path: take it from configuration or make it relative to the file (import.meta.dirname)',
        })),
      ],
    },
  },
  // Entry points and tests may print.
  { files: ['brokers/launcher/**', 'test/**', 'workers/cad/sandbox.ts'], rules: { 'no-console': 'off' } },
);
