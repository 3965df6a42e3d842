// A local stand-in for Slack's incoming webhooks: answers "ok" as Slack does, keeps every message
// and, for `npm start`, prints it, so the example workflows' whole loop shows offline.
// Also writes the example workflows with their Slack URL pointed at a given webhook.
import { createServer } from "node:http";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The placeholder the example workflows ship with, replaced by a real incoming webhook URL. */
export const SLACK_PLACEHOLDER = "https://hooks.slack.com/services/REPLACE/WITH/YOUR-INCOMING-WEBHOOK";

export async function startSlackStandIn({ print = false } = {}) {
  const messages = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      let parsed = body;
      try {
        parsed = JSON.parse(body);
      } catch {
        // not JSON: kept as sent
      }
      messages.push({ path: request.url, body: parsed });
      if (print) {
        const text = typeof parsed === "object" && parsed !== null && "text" in parsed ? parsed.text : body;
        console.log(`\n[Slack stand-in] message on ${request.url}:\n  ${String(text).split("\n").join("\n  ")}\n`);
      }
      response.writeHead(200, { "content-type": "text/plain" });
      response.end("ok");
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, messages, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Nodes that call Slack's own API (a Slack app credential, slack.com), which an incoming-webhook stand-in cannot answer. */
const SLACK_API_NODE = "n8n-nodes-base.slack";

/**
 * Copies the example workflows into `folder` with every Slack placeholder replaced by `slackUrl`
 * and the nodes that need Slack's API switched off (each with a note saying why, so that the local
 * demo's executions succeed); returns the folder.
 */
export function examplesPointedAt(examplesFolder, folder, slackUrl) {
  mkdirSync(folder, { recursive: true });
  for (const file of readdirSync(examplesFolder).filter((name) => name.endsWith(".json"))) {
    const text = readFileSync(join(examplesFolder, file), "utf8");
    const workflow = JSON.parse(text.replaceAll(SLACK_PLACEHOLDER, slackUrl));
    const notes = [];
    for (const node of workflow.nodes ?? []) {
      if (node.type !== SLACK_API_NODE) continue;
      node.disabled = true;
      node.notes = "Switched off in the local demo: the Slack stand-in takes webhook messages only. Add a Slack credential and switch it on to send the chart.";
      notes.push(
        stickyNote(
          `Why "${node.name}" is off`,
          [node.position[0] - 60, node.position[1] + 180],
          `## Off in this local demo\n**${node.name}** needs Slack's own API, which the local Slack stand-in does not answer, so it is switched off. Add a Slack credential, set the channel, and switch it on (select it, press D) to send the chart.`,
        ),
      );
    }
    if (text.includes(SLACK_PLACEHOLDER)) {
      const right = Math.max(...workflow.nodes.map((node) => node.position[0] + (node.parameters?.width ?? 100))) + 40;
      notes.push(
        stickyNote(
          "Slack in this local demo",
          [right, -340],
          `## Slack in this local demo\nSlack messages go to a local stand-in at ${slackUrl}, which prints each one where \`npm start\` runs. Set SLACK_WEBHOOK_URL to a Slack incoming webhook before \`npm start\` to post to Slack instead.`,
        ),
      );
    }
    workflow.nodes = [...(workflow.nodes ?? []), ...notes];
    writeFileSync(join(folder, file), `${JSON.stringify(workflow, null, 2)}\n`);
  }
  return folder;
}

let stickyNotes = 0;

/** A sticky note on the canvas (n8n's own node type for notes). */
function stickyNote(name, position, content) {
  stickyNotes += 1;
  return {
    id: `5e1c0000-0000-4000-8000-${String(stickyNotes).padStart(12, "0")}`,
    name,
    type: "n8n-nodes-base.stickyNote",
    typeVersion: 1,
    position,
    parameters: { content, width: 440, height: 200, color: 3 },
  };
}
