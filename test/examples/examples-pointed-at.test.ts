import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const standIn = join(__dirname, "../../scripts/slack-stand-in.mjs");
const SLACK_PLACEHOLDER = "https://hooks.slack.com/services/REPLACE/WITH/YOUR-INCOMING-WEBHOOK";

interface WorkflowNode {
  name: string;
  type: string;
  disabled?: boolean;
  notes?: string;
  parameters: Record<string, unknown>;
}

const STICKY_NOTE = "n8n-nodes-base.stickyNote";
const stickyTexts = (nodes: WorkflowNode[]) => nodes.filter((node) => node.type === STICKY_NOTE).map((node) => String(node.parameters.content));

const examplesFolder = join(__dirname, "../../nodes/examples");

/** The examples as `npm start` and the editor test import them: pointed at the local Slack stand-in (an ES module, run by Node itself). */
function pointedCopies(): Map<string, WorkflowNode[]> {
  const folder = mkdtempSync(join(tmpdir(), "linkshort-examples-"));
  const script = `const m = await import(${JSON.stringify(standIn)}); m.examplesPointedAt(${JSON.stringify(examplesFolder)}, ${JSON.stringify(folder)}, "http://127.0.0.1:9/hook");`;
  execFileSync(process.execPath, ["--input-type=module", "-e", script]);
  return new Map(readdirSync(folder).map((file) => [file, JSON.parse(readFileSync(join(folder, file), "utf8")).nodes as WorkflowNode[]]));
}

describe("example workflows pointed at the Slack stand-in", () => {
  it("leaves no Slack placeholder behind", () => {
    for (const [file, nodes] of pointedCopies()) expect(`${file}: ${JSON.stringify(nodes)}`).not.toContain(SLACK_PLACEHOLDER);
  });

  it("switches off the nodes that need Slack's own API, which a webhook stand-in cannot answer, saying why", () => {
    const nodes = pointedCopies().get("alert-slack-on-click-threshold.json")!;
    const upload = nodes.find((node) => node.type === "n8n-nodes-base.slack")!;
    expect(upload).toBeDefined();
    expect(upload.disabled).toBe(true);
    expect(upload.notes).toMatch(/Slack credential/);
    // The chart is still drawn, and the text alert still reaches the stand-in.
    expect(nodes.find((node) => node.name === "Chart its clicks")?.disabled).toBeUndefined();
    expect(nodes.find((node) => node.name === "Post to Slack")?.disabled).toBeUndefined();
  });

  it("keeps the shipped examples' Slack nodes on: a user who adds a credential gets the chart", () => {
    const shipped = JSON.parse(readFileSync(join(examplesFolder, "alert-slack-on-click-threshold.json"), "utf8")).nodes as WorkflowNode[];
    expect(shipped.find((node) => node.type === "n8n-nodes-base.slack")?.disabled).toBeUndefined();
  });

  it("says on the canvas why a node is off and where Slack messages go", () => {
    const notes = stickyTexts(pointedCopies().get("alert-slack-on-click-threshold.json")!);
    expect(notes.some((text) => /\*\*Upload the chart to Slack\*\*.*switched off/s.test(text) && /Slack credential/.test(text))).toBe(true);
    expect(notes.some((text) => text.includes("http://127.0.0.1:9/hook") && text.includes("SLACK_WEBHOOK_URL"))).toBe(true);
  });
});

describe("the shipped example workflows", () => {
  const shipped = readdirSync(examplesFolder)
    .filter((file) => file.endsWith(".json"))
    .map((file) => [file, JSON.parse(readFileSync(join(examplesFolder, file), "utf8")).nodes as WorkflowNode[]] as const);

  it("each say on the canvas what to set up: the LinkShort credential, and Slack's webhook or credential where they post to Slack", () => {
    for (const [file, nodes] of shipped) {
      const notes = stickyTexts(nodes).join("\n");
      expect(`${file}: ${notes}`).toMatch(/LinkShort credential/);
      if (JSON.stringify(nodes).includes(SLACK_PLACEHOLDER)) expect(`${file}: ${notes}`).toMatch(/incoming webhook/);
      if (nodes.some((node) => node.type === "n8n-nodes-base.slack")) expect(`${file}: ${notes}`).toMatch(/Slack credential/);
    }
  });

  it("say on the canvas what the threshold is and where to change it", () => {
    const nodes = shipped.find(([file]) => file === "alert-slack-on-click-threshold.json")![1];
    expect(stickyTexts(nodes).join("\n")).toMatch(/\*\*Threshold\*\* \(100 here: change it in the trigger\)/);
  });
});
