import fs from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Apps never import each other; this pattern is repeated in every block because a later block's list replaces an earlier one. */
const noCrossApp = {
  regex: '^@tradewind/(server|web|admin)',
  message:
    'Apps never import each other; share through a package (@tradewind/contract, @tradewind/http-client).',
};

/**
 * ARCHITECTURE §3, the same for both client apps (STYLE: one house): imports flow
 * shared (ui, api, lib) → features → app; features never import each other.
 */
function clientBoundaries(app) {
  const src = `apps/${app}/src`;
  const features = fs.existsSync(`${src}/features`) ? fs.readdirSync(`${src}/features`) : [];
  return [
    {
      files: [`${src}/ui/**`, `${src}/api/**`, `${src}/lib/**`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              noCrossApp,
              {
                regex: '^@/(features|app)/',
                message: 'Shared code (ui, api, lib) never imports features or the app shell.',
              },
            ],
          },
        ],
      },
    },
    ...features.map((feature) => ({
      files: [`${src}/features/${feature}/**/*.{ts,tsx}`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              noCrossApp,
              {
                regex: `^@/features/(?!${feature}/)`,
                message:
                  'A feature never imports another feature: move what both need to ui/, api/ or lib/.',
              },
              { regex: '^@/app/', message: 'Features do not import the app shell.' },
              { regex: '^(\\.\\./){3,}', message: 'Use the @/ alias instead of ../../..' },
            ],
          },
        ],
      },
    })),
  ];
}

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/build-ssr/**',
      '**/node_modules/**',
      'data/**',
      'artifacts/**',
      'apps/server/drizzle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-imports': ['error', { patterns: [noCrossApp] }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}', 'apps/admin/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  ...clientBoundaries('web'),
  ...clientBoundaries('admin'),
  {
    // The console's modules say what they give by name, and each file is its own module: no barrels.
    files: ['apps/admin/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ExportDefaultDeclaration',
          message: 'Named exports only (a page is lazy-loaded by its name: lib/lazy-page.ts).',
        },
        {
          selector: 'ExportAllDeclaration, ExportNamedDeclaration[source]',
          message: 'No re-exports: import from the file that defines it.',
        },
      ],
    },
  },
  {
    files: ['packages/contract/src/**', 'packages/http-client/src/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(@tradewind/(server|web|admin)|\\.\\./\\.\\./apps)',
              message: 'A package depends on no app.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/platform/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noCrossApp,
            {
              regex: '^(#modules/|\\.\\./modules/)',
              message: 'The platform never depends on a module; modules depend on the platform.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/modules/ledger/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noCrossApp,
            {
              // Any module but its schema (a foreign key to users), and anything above the modules (app.ts, the lists).
              regex: '^(\\.\\./|#modules/)(?![a-z-]+/tables(\\.ts)?$)',
              message:
                'The ledger imports only the platform, the contract and schemas (foreign keys): what it needs from a module is handed in (docs/decisions/0018).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/**'],
    // Other schemas may reference the ledger's tables (foreign keys); nothing else may import them.
    ignores: ['apps/server/src/modules/ledger/**', 'apps/server/src/modules/*/tables.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          // However the path is spelled: `../ledger/tables.ts`, `#modules/ledger/tables.ts`, `./ledger/tables`.
          selector: 'ImportDeclaration[source.value=/(^|\\/)ledger\\/tables(\\.ts)?$/]',
          message:
            'Only modules/ledger reads and writes ledger tables: call the ledger service instead (ARCHITECTURE §3).',
        },
      ],
    },
  },
);
