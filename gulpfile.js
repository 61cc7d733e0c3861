const fs = require('node:fs');
const path = require('node:path');
const { task, src, dest } = require('gulp');
const ts = require('typescript');
const uglify = require('uglify-js');

// tsc emits only .js: copy the icons next to the compiled nodes and credentials.
task('build:icons', () => {
	const nodeIcons = src(path.resolve('nodes', '**', '*.{png,svg}'), { encoding: false });
	const credentialIcons = src(path.resolve('credentials', '**', '*.{png,svg}'), { encoding: false });
	nodeIcons.pipe(dest(path.resolve('dist', 'nodes')));
	return credentialIcons.pipe(dest(path.resolve('dist', 'credentials')));
});

/**
 * The file's syntax tree as a list of node kinds, with each name and each literal's value (a
 * number's, a string's, a template part's, a regex's): equal for two texts that differ only in
 * layout, quotes, the way a number is written, a property name's quotes, a shorthand property
 * or parentheses that change nothing.
 */
function shape(name, text) {
	const sourceFile = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
	const out = [];
	const visit = (node) => {
		if (ts.isParenthesizedExpression(node)) return ts.forEachChild(node, visit);
		// { version } is { version: version }.
		if (ts.isShorthandPropertyAssignment(node) && !node.objectAssignmentInitializer) {
			out.push(String(ts.SyntaxKind.PropertyAssignment), `name ${node.name.text}`, `name ${node.name.text}`);
			return undefined;
		}
		// A property's name, quoted or not ({ "default": … } and { default: … } are one object).
		const propertyName = node.parent && 'name' in node.parent && node.parent.name === node && ts.isStringLiteral(node);
		if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node) || propertyName) out.push(`name ${node.text}`);
		else if (ts.isNumericLiteral(node)) out.push(`number ${Number(node.getText(sourceFile).replace(/_/g, ''))}`);
		else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node) || ts.isRegularExpressionLiteral(node)) out.push(`${node.kind} ${JSON.stringify(node.text)}`);
		else out.push(String(node.kind));
		ts.forEachChild(node, visit);
	};
	visit(sourceFile);
	return out.join('\n');
}

// The packed tarball is kept under 85 KiB (issue 44; npm run verify checks it). The compiled files
// lose the whitespace tsc lays them out with (uglify-js printing them again, one statement a line:
// no renaming, no rewriting, no comments, characters beyond ASCII written as \\u escapes as tsc
// leaves them in the windows-1252 table; about 3 KiB packed). Each file is checked to be the same
// program as tsc wrote (the same syntax tree and literal values), and `npx prettier dist/…` lays a
// file out again. The sources are the TypeScript on GitHub, which the npm provenance statement ties
// to the tarball.
task('build:compact', (done) => {
	const files = fs.readdirSync('dist', { recursive: true }).filter((file) => file.endsWith('.js')).map((file) => path.join('dist', file));
	for (const file of files) {
		const text = fs.readFileSync(file, 'utf8');
		const { code, error } = uglify.minify(text, { compress: false, mangle: false, output: { comments: false, semicolons: false, quote_style: 3, ascii_only: true } });
		if (error) return done(error);
		if (shape(file, code) !== shape(file, text)) return done(new Error(`build:compact would change ${file}`));
		fs.writeFileSync(file, `${code}\n`);
	}
	done();
});
