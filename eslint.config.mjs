// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  {
    ignores: ['dist/', 'node_modules/', 'coverage/', 'artifacts/', 'screen-host/dist/', 'packages/*/dist/', 'packages/client/src/schema.ts', '**/*.mjs', '**/*.cjs', '*.config.js'],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-extraneous-class': 'off',
    },
  },
  {
    // Secrets are read in one place (docs/screen-host.md): the environment belongs to src/config (Warden's
    // own settings) and src/secrets (a tenant's named secrets, released only for a granted origin).
    files: ['src/**/*.ts'],
    ignores: ['src/config/**', 'src/secrets/**', 'src/**/*.spec.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'read settings through AppConfig, and secrets through SecretGrants (src/secrets)',
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', 'test/**/*.ts', 'screen-host/test/**/*.ts', 'bench/**/*.ts', 'evals/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
