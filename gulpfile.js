const fs = require('node:fs');
const path = require('node:path');
const { task, src, dest } = require('gulp');
const ts = require('typescript');

// tsc emits only .js: copy the icons next to the compiled nodes and credentials.
task('build:icons', () => {
	const nodeIcons = src(path.resolve('nodes', '**', '*.{png,svg}'), { encoding: false });
	const credentialIcons = src(path.resolve('credentials', '**', '*.{png,svg}'), { encoding: false });
	nodeIcons.pipe(dest(path.resolve('dist', 'nodes')));
	return credentialIcons.pipe(dest(path.resolve('dist', 'credentials')));
});

/** Offsets of the text inside string, template and regex literals of a JS file (never re-indented). */
function literalRanges(sourceFile) {
	const ranges = [];
	const kinds = new Set([
		ts.SyntaxKind.StringLiteral,
		ts.SyntaxKind.NoSubstitutionTemplateLiteral,
		ts.SyntaxKind.TemplateHead,
		ts.SyntaxKind.TemplateMiddle,
		ts.SyntaxKind.TemplateTail,
		ts.SyntaxKind.RegularExpressionLiteral,
	]);
	const visit = (node) => {
		if (kinds.has(node.kind)) ranges.push([node.getStart(sourceFile), node.getEnd()]);
		ts.forEachChild(node, visit);
	};
	visit(sourceFile);
	return ranges;
}

/** The file as TypeScript's printer writes it: equal for two texts that differ only in layout. */
const printed = (name, text) => ts.createPrinter().printFile(ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true));

// The packed tarball is kept under 85 KiB (issue 44; npm run verify checks it). tsc indents with 4
// spaces and has no option against it: the compiled files lose their indentation (about 4 KiB
// packed). Nothing else changes: names, strings and line numbers stay (a stack trace points at the
// same line), only whitespace outside literals goes, each file is checked to print exactly as before
// (TypeScript's printer), and `npx prettier dist/…` lays a file out again. The sources are the
// TypeScript on GitHub, which the npm provenance statement ties to the tarball.
task('build:unindent', (done) => {
	const files = fs.readdirSync('dist', { recursive: true }).filter((file) => file.endsWith('.js')).map((file) => path.join('dist', file));
	for (const file of files) {
		const text = fs.readFileSync(file, 'utf8');
		const ranges = literalRanges(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true));
		let offset = 0;
		const lines = text.split('\n').map((line) => {
			const start = offset;
			offset += line.length + 1;
			if (ranges.some(([from, to]) => start > from && start < to)) return line;
			return line.replace(/^[ \t]+/, '');
		});
		const unindented = lines.join('\n');
		if (printed(file, unindented) !== printed(file, text)) return done(new Error(`build:unindent would change ${file}`));
		fs.writeFileSync(file, unindented);
	}
	done();
});
