/** list_domains: the branded domains that the link tools accept as `domain`. */
import { DomainPageOutput, pagePosition } from "../outputs";
import { define, PageInput, READ } from "./define";

export const listDomains = define({
  name: "list_domains",
  title: "List branded domains",
  description:
    "Lists the account's branded domains, which shorten_link and update_link accept as domain, one page at a time; morePages says whether another page follows.",
  input: PageInput,
  output: DomainPageOutput,
  annotations: READ,
  run: async (args, { client, signal }) => {
    const page = await client.domains.list(args, { signal });
    return { domains: page.items, ...pagePosition(page, args.page ?? 1) };
  },
});
