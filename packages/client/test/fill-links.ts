import { emptyStats, type Sandbox } from "@linkshort/sandbox";
import { linkDefaults } from "../../sandbox/src/model/link-record";

/**
 * Gives the sandbox's user `count` links straight in its store (a test or bench setup, not an API
 * load), one a second from 2026-01-01: alias `fill<i>`, the oldest titled "The aardvark page",
 * with `clicksOf(i)` clicks.
 */
export function fillLinks(sandbox: Sandbox, count: number, clicksOf: (index: number) => number = () => 0): void {
  const start = Date.UTC(2026, 0, 1);
  for (let i = 0; i < count; i += 1) {
    sandbox.store.state.links.push({
      id: sandbox.store.nextId("links"),
      userId: 2,
      alias: `fill${i}`,
      domain: null,
      url: `https://example.com/fill/${i}`,
      ...linkDefaults(),
      metatitle: i === 0 ? "The aardvark page" : `Fill ${i}`,
      date: new Date(start + i * 1000).toISOString().slice(0, 19).replace("T", " "),
      stats: { ...emptyStats(), clicks: clicksOf(i) },
    });
  }
}
