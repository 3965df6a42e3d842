/**
 * What n8n's AI workflow builder reads on each link operation (`builderHint.propertyHint`): which
 * request it fits, and the output fields the next node can use.
 */
export const LINK_BUILDER_HINTS = {
	create:
		'Use to shorten a URL ("shorten this", "make a short link", "add UTM tags"). Output: id, alias, shorturl, longurl, title, description, expiry. ' +
		'When the same URL may be shortened again (a re-run, a form sent twice, rows of a table or sheet processed on a schedule), set options.reuse (Reuse Existing Link) to true: ' +
		'the existing identical link is returned (reused: true) instead of a duplicate. Reuse hands back only a link with the same URL, alias, domain, title, description, expiry, targeting, redirect type, UTM/parameters and password (the same password or none); ' +
		'write the returned shorturl back to the row or record so later runs can skip it.',
	get: 'Use to read one link\'s click statistics ("how many clicks", "stats of this link"): clicks, uniqueClicks, topCountries, topReferrers. Pick the link by ID, or mode "url" with the short URL. Add Click Chart attaches a PNG for Slack or e-mail.',
	getMany:
		'Use to list links ("top links", "all my links", a weekly report): order "click" for most clicked first, "date" for newest first; returnAll or limit.',
	update:
		'Use to change an existing short link (its destination URL, title, expiry, UTM fields). Output: the link as the service now holds it, named as Get names it.',
	delete: 'Use to delete a short link. Irreversible: its clicks are lost.',
} as const;
