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
			// Main-repository-only rule (it wants an n8n docs slug); community credentials link a URL,
			// which @n8n/community-nodes/credential-documentation-url checks. Off as in n8n's starter.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		languageOptions: { parser: tsParser, parserOptions: { sourceType: 'module' } },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: legacyRules('nodes'),
	},
	{
		...n8nCommunityNodesPlugin.configs.recommended,
		files: ['package.json', 'credentials/**/*.ts', 'nodes/**/*.ts'],
	},
];
