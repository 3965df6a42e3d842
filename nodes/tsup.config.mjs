// The published build (`npm run build`): the node, the trigger and the credential as CommonJS
// files n8n `require`s, with the client's core bundled in (n8n installs no dependencies of a
// community package; it provides n8n-workflow, luxon and zod itself).
//
// Code the entries share goes into one chunk, dist/shared/chunk-<hash>.js, that both node files
// require: the client's process-wide state (one rate limiter per account, the memory of each
// account's page size) then exists once per n8n process, not once per node file, so the node and
// the trigger pace one key together. esbuild splits only ES modules; `treeshake` hands each output
// file to rollup, which writes it as CommonJS. No `import` here: n8n's lint allows none of tsup.
export default {
	entry: {
		'nodes/LinkShort/LinkShort.node': 'nodes/LinkShort/LinkShort.node.ts',
		'nodes/LinkShortTrigger/LinkShortTrigger.node': 'nodes/LinkShortTrigger/LinkShortTrigger.node.ts',
		'credentials/LinkShortApi.credentials': 'credentials/LinkShortApi.credentials.ts',
	},
	outDir: 'dist',
	format: ['cjs'],
	target: 'node20',
	clean: true,
	splitting: true,
	treeshake: true,
	esbuildOptions(options) {
		options.chunkNames = 'shared/[name]-[hash]';
	},
	external: ['n8n-workflow', 'luxon', 'zod', 'zod/v4'],
	noExternal: ['@linkshort/client'],
};
