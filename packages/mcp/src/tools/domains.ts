/** list_domains: the branded domains that the link tools accept as `domain`. */
import { DomainPageOutput } from "./outputs";
import { define, READ } from "./define";
import { onePageOf, PageInput } from "./paging";

export const listDomains = define({
  name: "list_domains",
  title: "List branded domains",
  description:
    "Lists the account's branded domains, which shorten_link and update_links accept as domain, one page at a time; morePages says whether another page follows.",
  input: PageInput,
  output: DomainPageOutput,
  annotations: READ,
  run: onePageOf("domains", (client, params, signal) => client.domains.list(params, { signal })),
});
