// The headers of each replayed demo visit (`npm start`): a visitor as a CDN and a browser present
// one, so that the demo's statistics name countries, browsers, systems and referrers rather than
// "Unknown". The CDN's country header is an ISO code; the demo week names its countries.

const COUNTRY_CODES = { Canada: "CA", "United States": "US", Germany: "DE", France: "FR", Japan: "JP" };

const USER_AGENTS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
];

/** Where visitors come from; undefined: typed in or from an app (the statistics' "Direct"). */
const REFERRERS = ["https://www.google.com/", "https://news.ycombinator.com/", "https://twitter.com/", undefined, "https://www.linkedin.com/feed/"];

/** The request headers of one demo visit (`{ at, country }` of `demoWeekVisits`), the same for the same visit. */
export function demoVisitHeaders(visit) {
  const referrer = REFERRERS[visit.at % REFERRERS.length];
  return {
    "CF-IPCountry": COUNTRY_CODES[visit.country] ?? "XX",
    "user-agent": `${USER_AGENTS[Math.floor(visit.at / 7) % USER_AGENTS.length]} demo-visitor-${visit.at % 97}`,
    ...(referrer ? { referer: referrer } : {}),
  };
}
