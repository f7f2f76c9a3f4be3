// The house's ESLint: typescript-eslint's type-checked recommended rules on the TypeScript (src, test,
// fixtures, bench), ESLint's recommended rules on the plain JavaScript (bin, scripts, bench). Layout is
// Prettier's job (.prettierrc.json), dead code knip's (knip.json). docs/architecture.md, "House tools".
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'bench/.out/',
      'fixtures/.generated/',
      'tmp/',
      '.scratch/',
      '.venv-*/',
      // A package of its own (its dependencies, its tsconfig, its build): its own npm run package.
      'editors/',
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['**/*.ts', '**/*.mts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Text from outside is matched for control characters on purpose: it is escaped before a terminal sees it.
      'no-control-regex': 'off',
      // The lexers compare charCodeAt() numbers with const enums of character codes (inlined, the hot path).
      '@typescript-eslint/no-unsafe-enum-comparison': 'off',
      // async is kept where an interface promises a Promise (stores, runtimes, their test doubles).
      '@typescript-eslint/require-await': 'off',
      // Destructuring a field away (`{ path: _path, ...rest }`) and placeholder parameters are named `_x`.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { ignoreRestSiblings: true, argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // scripts/gen-config-types.mjs writes a proto message with no fields as an empty interface.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'always' }],
      // A rejection passes on what it caught, as only-throw-error's defaults allow for throw.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
    },
  },
  {
    // The parsers unwind a fast path with a sentinel (a symbol, NeedBytes), caught beside it, never seen outside.
    files: ['src/pbtxt/clean-parse.ts', 'src/pbtxt/parser.ts', 'src/pytorch/reader.ts'],
    rules: { '@typescript-eslint/only-throw-error': 'off' },
  },
  {
    // The rule registry holds rules of every option and message type as `any` (src/lint/rule.ts, Rule):
    // their metadata passes through these files as it is.
    files: ['src/lint/engine.ts', 'src/lint/settings.ts', 'src/watch/session.ts'],
    rules: { '@typescript-eslint/no-unsafe-argument': 'off', '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
  {
    // The clients' runtimes are embedded in every generated module as written and compiled by the user's
    // TypeScript, whose lib may type TextEncoder or JSON differently: a cast this one finds unneeded is kept.
    files: ['src/client/runtime/**'],
    rules: { '@typescript-eslint/no-unnecessary-type-assertion': 'off' },
  },
  {
    // Tests read reports, JSON and protocol messages back as `any` and let expect() check their shape.
    files: ['test/**', 'fixtures/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
    },
  },
);
