// Lint exactly what n8n checks before it verifies a community package:
// eslint-plugin-n8n-nodes-base (community, credentials, nodes sets) and
// @n8n/eslint-plugin-community-nodes (recommended), on the shipped sources and package.json.
import tsParser from '@typescript-eslint/parser';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';

const legacyRules = (name) => n8nNodesBase.configs[name].rules;

export default [
	{
		ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test-output/**', '**/*.js', '**/*.mjs'],
	},
	{
		files: ['package.json'],
		// Both plugins read package.json as a TypeScript expression, as n8n's starter sets it up.
		languageOptions: { parser: tsParser, parserOptions: { extraFileExtensions: ['.json'] } },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: legacyRules('community'),
	},
	{
		files: ['credentials/**/*.ts'],
		languageOptions: { parser: tsParser, parserOptions: { sourceType: 'module' } },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...legacyRules('credentials'),
			// The same exceptions as n8n's verification scanner (scripts/scan-package.mjs runs it):
			// a community credential links a URL, not an n8n docs slug, and the community plugin's
			// credential-password-field rule replaces the legacy password check.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		languageOptions: { parser: tsParser, parserOptions: { sourceType: 'module' } },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...legacyRules('nodes'),
			// The scanner's exceptions: inputs/outputs use the NodeConnectionTypes enum (which the
			// community plugin requires), and the API's page-size maximums are real limits.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	{
		...n8nCommunityNodesPlugin.configs.recommended,
		files: ['package.json', 'credentials/**/*.ts', 'nodes/**/*.ts'],
	},
	{
		files: ['credentials/**/*.ts', 'nodes/**/*.ts'],
		rules: { 'no-console': 'error' },
	},
];
