/**
 * Every tool, in the order tools/list shows them: one definition per tool, grouped by resource in
 * the modules beside this one. The server lists and runs these; tests iterate them.
 */
import { getAccount } from "./account";
import { createUser, deleteUser, getUser, listPlans, listUsers, subscribeUserToPlan } from "./admin";
import type { ToolDefinition } from "./define";
import { listDomains } from "./domains";
import { findLinks } from "./find-links";
import { deleteLinks } from "./delete-links";
import { getLink, shortenLink } from "./links";
import { createQrCode, getQrCode, listQrCodes } from "./qr-codes";
import { shortenLinks } from "./shorten-links";
import { updateLinks } from "./update-links";

export const TOOLS: readonly ToolDefinition[] = [
  shortenLink,
  shortenLinks,
  findLinks,
  getLink,
  updateLinks,
  deleteLinks,
  createQrCode,
  getQrCode,
  listQrCodes,
  listDomains,
  getAccount,
  // Administrators' tools, offered only with `--admin` and an administrator's key.
  listPlans,
  subscribeUserToPlan,
  listUsers,
  getUser,
  createUser,
  deleteUser,
];

export const TOOLS_BY_NAME: ReadonlyMap<string, ToolDefinition> = new Map(TOOLS.map((tool) => [tool.name, tool]));
