/**
 * The one check of a link's create input: every way of making a link (`links.create`, `createLink`,
 * a front end that checks its arguments first) goes through `checkLinkCreate`, and a value it
 * checked is sent as it stands, never checked again.
 */
import { validate } from "../../internal/validate";
import { LinkCreateSchema, type LinkCreateBody, type LinkCreateInput } from "./schemas";
import { withUtm } from "./utm";

declare const checkedByTheClient: unique symbol;

/** A create body as `checkLinkCreate` made it: checked, the UTM fields written into `parameters`, frozen. */
export type CheckedLinkCreate = Readonly<LinkCreateBody> & { readonly [checkedByTheClient]: true };

export interface LinkCreateCheckOptions {
  /**
   * The domain of a link whose input names none: a front end's setting (Raycast's Default Domain).
   * Blank or absent: the service's own. Checked as the input's `domain` would be (a body checked
   * before keeps the domain it was checked with).
   */
  defaultDomain?: string;
}

/** Only the bodies `checkLinkCreate` made: an object shaped like one is still checked. */
const checkedBodies = new WeakSet<object>();

function isChecked(input: LinkCreateInput | CheckedLinkCreate): input is CheckedLinkCreate {
  return checkedBodies.has(input);
}

/** The input with the default domain where it names none. */
function withDefaultDomain(input: LinkCreateInput, defaultDomain: string | undefined): LinkCreateInput {
  const domain = defaultDomain?.trim();
  if (!domain || input === null || typeof input !== "object" || input.domain !== undefined) return input;
  return { ...input, domain };
}

/**
 * Checks a create input (a `ValidationError` naming each field, before any request) and gives the
 * body to send. A body it gave before is handed back as it is: a front end that checks its
 * arguments with this, and the client methods it then calls, check them once in all.
 */
export function checkLinkCreate(input: LinkCreateInput | CheckedLinkCreate, options: LinkCreateCheckOptions = {}): CheckedLinkCreate {
  if (isChecked(input)) return input;
  const body = Object.freeze(withUtm(validate(LinkCreateSchema, withDefaultDomain(input, options.defaultDomain), "links.create")));
  checkedBodies.add(body);
  // The brand says what the WeakSet records: this very object came out of the check above.
  return body as CheckedLinkCreate;
}
