// @ts-check
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '.vscode-test-cache/**', 'demo-workspace/**', '**/*.mjs', '**/*.js'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-console': 'error',
    },
  },
  {
    // The engine runs without an editor: the MCP server and the CLI load it in plain Node.
    files: ['src/core/**/*.ts', 'src/cli/**/*.ts', 'src/mcp/**/*.ts', 'src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/core, src/cli, src/mcp and src/shared must not depend on VS Code; add a port instead.' }] }],
      '@typescript-eslint/no-restricted-imports': 'off',
    },
  },
  {
    files: ['src/cli/**/*.ts', 'test/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
);
