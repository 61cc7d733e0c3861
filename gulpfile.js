const path = require('node:path');
const { task, src, dest } = require('gulp');

// tsc emits only .js: copy the icons next to the compiled nodes and credentials.
task('build:icons', () => {
	const nodeIcons = src(path.resolve('nodes', '**', '*.{png,svg}'), { encoding: false });
	const credentialIcons = src(path.resolve('credentials', '**', '*.{png,svg}'), { encoding: false });
	nodeIcons.pipe(dest(path.resolve('dist', 'nodes')));
	return credentialIcons.pipe(dest(path.resolve('dist', 'credentials')));
});
