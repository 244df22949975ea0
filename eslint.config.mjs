// @ts-check
import tseslint from 'typescript-eslint';
import coreTiers from './scripts/eslintCoreTiers.mjs';

/**
 * Adapters reach the engine only through its door: the service, its types, its messages and its
 * errors. (The folder `core/api` is let through first, because a path under an excluded folder
 * cannot be let through again.)
 */
const ADAPTER_BOUNDARY = {
  group: [
    '**/core/*',
    '**/core/**',
    '!**/core/api',
    '!**/core/api/contextService',
    '!**/core/api/types',
    '!**/core/api/messages',
    '!**/core/api/errors',
  ],
  message:
    'Adapters (src/vscode, src/mcp, src/cli) use the core only through its door: src/core/api/contextService, types, messages and errors; add a use case to ContextService instead.',
};
/** The thin hook launcher's modules (bundled apart as dist/hook.js). */
const LAUNCHER = [
  'src/cli/hookMain.ts',
  'src/cli/hooks/hookAnswer.ts',
  'src/cli/hooks/hookClient.ts',
  'src/cli/hooks/hookFlags.ts',
  'src/cli/hooks/hookPlan.ts',
  'src/cli/hooks/hosts.ts',
];
const NO_VSCODE = {
  name: 'vscode',
  message: 'src/core, src/cli, src/mcp, src/shared and src/measure must not depend on VS Code; add a port instead.',
};

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      '.vscode-test-cache/**',
      'demo-workspace/**',
      'test/fixtures/**/*.js',
      'test-results/**',
    ],
  },
  ...tseslint.configs.recommended,
  // The TypeScript sources get the full type-checked set.
  ...tseslint.configs.recommendedTypeChecked.map((c) => ({ ...c, files: ['**/*.ts'] })),
  {
    // Type-aware rules everywhere: a promise nobody awaits or handles is a bug waiting to happen.
    files: ['**/*.ts', '**/*.mjs', '**/*.js'],
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['*.mjs'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
      // A rejection passes on what it caught; a caught value is unknown by type, not by nature.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      'no-console': 'error',
    },
  },
  {
    // The scripts around the product are JavaScript: checked with the scripts project, not emitted.
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      parserOptions: {
        projectService: false,
        project: './tsconfig.scripts.json',
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: { 'no-console': 'off', '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The engine runs without an editor: the MCP server and the CLI load it in plain Node.
    files: ['src/core/**/*.ts', 'src/shared/**/*.ts', 'src/measure/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [NO_VSCODE] }] },
  },
  {
    // The lowest layer: the engine, the adapters and the panel page all use it, so it uses none of them.
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [NO_VSCODE],
          patterns: [
            {
              group: ['**/core/**', '**/vscode/**', '**/mcp/**', '**/cli/**', '**/measure/**', '**/webview/**'],
              message: 'src/shared sits below the engine and every adapter: it imports only its own files.',
            },
          ],
        },
      ],
    },
  },
  {
    // Inside the core, imports point down the tiers (scripts/importGraph.mjs lists them).
    files: ['src/core/**/*.ts'],
    plugins: { pc: coreTiers },
    rules: { 'pc/core-tiers': 'error' },
  },
  {
    files: ['src/cli/**/*.ts', 'src/mcp/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [NO_VSCODE], patterns: [ADAPTER_BOUNDARY] }] },
  },
  {
    files: ['src/vscode/**/*.ts', 'src/extension.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ADAPTER_BOUNDARY] }] },
  },
  {
    // The hook launcher runs on every agent edit, so its bundle holds only what it needs: the door's
    // modules would pull in sql.js and tree-sitter. It has a door of its own, for it alone.
    files: LAUNCHER,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [NO_VSCODE],
          patterns: [
            {
              ...ADAPTER_BOUNDARY,
              group: [...ADAPTER_BOUNDARY.group, '!**/core/api/hookLauncher'],
            },
          ],
        },
      ],
    },
  },
  {
    // The page sees only the protocol: no engine, no adapter, no Node, no VS Code API module.
    files: ['src/webview/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [NO_VSCODE],
          patterns: [
            {
              group: ['**/core/**', '**/vscode/**', '**/mcp/**', '**/cli/**', '**/measure/**', 'node:*'],
              message: 'The panel page imports only src/shared (the protocol) and its own files.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/cli/**/*.ts', 'test/**/*.ts', 'src/measure/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    // Long functions and deep ladders hide heuristics: warn, and split them or give the reason in the
    // disable comment.
    files: ['src/**/*.ts'],
    rules: {
      'max-lines-per-function': ['warn', { max: 80, skipBlankLines: true, skipComments: true }],
      complexity: ['warn', 25],
    },
  },
);
